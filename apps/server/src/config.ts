import path from 'node:path';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '@ks/contracts';
import { z } from 'zod';
import { defaultHashThreads } from './platform/password-pool';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'], { message: 'must be 1/0/true/false' })
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

/** Every setting the server reads from the environment; README's configuration table mirrors this. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intIn(1, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\//,
      'must start with postgres:// or postgresql:// (leave unset for the embedded database)',
    )
    .optional(),
  /** Connections to PostgreSQL the server keeps at most (DATABASE_URL only). */
  DB_POOL_SIZE: intIn(1, 200).default(20),
  SEED_DEMO: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Milliseconds a stopping process (SIGTERM / SIGINT) gives in-flight requests to finish after it stops accepting
   * connections and ends the live streams; past it the process logs what was still open and exits with code 1.
   */
  SHUTDOWN_GRACE_MS: intIn(100, 600_000).default(10_000),
  /**
   * Worker threads that hash and check passwords (argon2id, ≈ 0.15 s of a core and 19 MiB each): at most this many run
   * at once, off the event loop; more sign-ins wait their turn. Default: half the cores, 1 to 4.
   */
  PASSWORD_HASH_THREADS: intIn(1, 16).optional(),
  /** Idle minutes before a session expires; every request slides it forward. */
  SESSION_TTL_MINUTES: intIn(1, 60 * 24 * 30).default(120),
  /** 1: a new sign-in ends the account's other sessions (they get code 10017). */
  SINGLE_SESSION: bool.default(true),
  /**
   * Failed sign-ins from one address (any accounts) within 15 minutes after which every sign-in from it needs a
   * captcha. An office behind one address shares it; each account also needs a captcha after its own 3 failures.
   */
  LOGIN_ADDRESS_CAPTCHA_AFTER: intIn(3, 10_000).default(20),
  /** Sign-in requests per minute per client address. */
  LOGIN_RATE_LIMIT_PER_MINUTE: intIn(1, 1_000_000).default(30),
  /** Requests per minute per client address on the whole API. */
  RATE_LIMIT_PER_MINUTE: intIn(1, 1_000_000).default(600),
  /** Largest JSON body in bytes. */
  BODY_LIMIT_BYTES: intIn(1024, 100 * 1024 * 1024).default(1_048_576),
  /** Trust X-Forwarded-For from a reverse proxy. */
  TRUST_PROXY: bool.default(false),
  PLATFORM_NAME: z.string().min(1).max(40).default('公共资源交易与信用管理平台'),
  /** Override the footer texts kept in the database (platform settings). */
  PLATFORM_DESCRIBE: z.string().max(500).optional(),
  PLATFORM_FILING_CODE: z.string().max(100).optional(),
  SERVICE_PHONE: z
    .string()
    .regex(/^[0-9+\-() ]{3,30}$/, 'must be a phone number')
    .optional(),
  /**
   * The platform's time zone (IANA name): it decides which day "today" is for every date rule, on the server and, through
   * index.html, in the browser, and how times are shown.
   */
  APP_TZ: z
    .string()
    .refine((tz) => canonicalTimeZone(tz) !== null, 'must be an IANA time zone such as Asia/Shanghai')
    .transform((tz) => canonicalTimeZone(tz) as string)
    .default(DEFAULT_TIME_ZONE),
  /** ggfw: public portal at `/`; login: the sign-in page is the landing route; ywbl: that plus /admin-business. */
  LOGIN_MODE: z.enum(['ggfw', 'login', 'ywbl']).default('ggfw'),
  /** External bid-opening hall (开标大厅) linked from the portal header. */
  BID_HALL_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  /** Folder of the built web app; empty disables static serving (API only). */
  WEB_DIST: z.string().optional(),
  // @config:files — stored files: local disk under DATA_DIR, or S3-compatible object storage when S3_BUCKET is set
  S3_ENDPOINT: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lower-case letters, digits, . or -)')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).max(256).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).max(256).optional(),
  /** path-style addresses (endpoint/bucket/key); the default is on when S3_ENDPOINT is set (MinIO, Ceph …) */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** Largest file of a single-request upload (attachments, editor images, notices), in MB. */
  UPLOAD_MAX_MB: intIn(1, 4096).default(100),
  /** Largest file of a chunked upload, in MB (S3 allows 10,000 parts of 5 MB). */
  CHUNKED_UPLOAD_MAX_MB: intIn(1, 48_000).default(4096),
  /** Hours an unfinished chunked upload keeps its chunks. */
  UPLOAD_TASK_TTL_HOURS: intIn(1, 24 * 30).default(72),
  // @config:weather — the header's weather widget: the AMap (高德) weather query API; no key, no weather
  /** The AMap Web service key; unset: the widget says 天气服务未配置. Never sent to the browser. */
  AMAP_WEATHER_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,128}$/, 'must be an AMap Web service key (letters and digits)')
    .optional(),
  /** The city's administrative code (adcode), e.g. 140100 for 太原市. */
  AMAP_WEATHER_CITY: z
    .string()
    .regex(/^\d{6}$/, 'must be a 6-digit administrative code (adcode) such as 140100')
    .default('140100'),
  /** The weather query address (a test or a proxy may stand in for AMap). */
  AMAP_WEATHER_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .default('https://restapi.amap.com/v3/weather/weatherInfo'),
  /** Milliseconds to wait for the weather service. */
  AMAP_WEATHER_TIMEOUT_MS: intIn(100, 60_000).default(5000),
  // @config:dex — 数据交换: the upstream public-resource platform that published transaction data is pushed to and
  // enterprise registrations are pulled from; unset: pushes stay queued and syncs are refused
  /** The upstream's API base address (POST {url}/push, POST {url}/registrations). */
  DEX_UPSTREAM_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  /** This platform's app id at the upstream (header X-App-Id). */
  DEX_APP_ID: z.string().min(1).max(128).optional(),
  /** The shared secret of the HMAC-SHA256 signature of every push. Never logged. */
  DEX_APP_SECRET: z.string().min(8).max(256).optional(),
  /** Milliseconds to wait for the upstream's answer. */
  DEX_TIMEOUT_MS: intIn(100, 120_000).default(10_000),
  /** Attempts of a push before it is failed (an administrator may re-send it). */
  DEX_MAX_ATTEMPTS: intIn(1, 50).default(5),
  /** First back-off between attempts, in ms (doubles with each failure, at most an hour). */
  DEX_BACKOFF_MS: intIn(10, 3_600_000).default(10_000),
  /** How often each process looks for due pushes and waiting registration syncs, in ms. */
  DEX_POLL_MS: intIn(100, 600_000).default(5000),
  /** Registrations asked for per page of a sync (POST {url}/registrations). */
  DEX_SYNC_PAGE_SIZE: intIn(1, 500).default(100),
  // @config:guarantee — the electronic guarantee issuer (出函机构) of bid guarantee letters; unset: none can be applied for
  /** The issuer's API base address (its guarantee API: POST /v1/guarantees, GET /v1/guarantees/{orderNo}[/letter]). */
  GUARANTEE_ISSUER_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  /** The API key the issuer gave the trading centre (sent as a Bearer token; never shown). */
  GUARANTEE_ISSUER_KEY: z.string().min(8).max(256).optional(),
  /** The issuer's name as letters and pages show it. */
  GUARANTEE_ISSUER_NAME: z.string().min(2).max(100).default('电子保函出函机构'),
  /** Milliseconds to wait for the issuer. */
  GUARANTEE_ISSUER_TIMEOUT_MS: intIn(100, 120_000).default(10_000),
  /** Seconds between background passes over letters waiting for the issuer; 0: only when someone asks (getbaohanresult). */
  GUARANTEE_POLL_SECONDS: intIn(0, 86_400).default(30),
  // @config:wechat — WeChat QR sign-in (WeChat Open Platform website application) and refresh tokens
  /** The website application's AppID (wx…); with the secret and the redirect base it turns WeChat sign-in on. */
  WECHAT_APP_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,64}$/, 'must be a WeChat AppID (letters and digits)')
    .optional(),
  WECHAT_APP_SECRET: z.string().min(8).max(128).optional(),
  /** The platform's own address as browsers reach it; redirect_uri is {base}/ks/individual/wechat/verify-qrcode. */
  WECHAT_REDIRECT_BASE: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  /** The QR page's host (open.weixin.qq.com; a fake in tests). */
  WECHAT_OPEN_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .default('https://open.weixin.qq.com'),
  /** The API host of the code exchange and the user info (api.weixin.qq.com; a fake in tests). */
  WECHAT_API_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .default('https://api.weixin.qq.com'),
  /** Milliseconds to wait for the WeChat API. */
  WECHAT_TIMEOUT_MS: intIn(100, 60_000).default(5000),
  /** Hours a sign-in can be kept alive by refresh tokens, counted from the sign-in (rotation does not extend it). */
  REFRESH_TOKEN_TTL_HOURS: intIn(1, 24 * 90).default(12),
  // @config:sms — SMS verification codes (issue 15): a provider (Aliyun / Tencent Cloud), the dev outbox, or off
  /** aliyun | tencent: that provider sends; outbox: codes go to the developers' outbox (refused in production); off */
  SMS_PROVIDER: z
    .enum(['aliyun', 'tencent', 'outbox', 'off'], { message: 'must be aliyun, tencent, outbox or off' })
    .optional(),
  /** The provider's AccessKey ID (Aliyun) or SecretId (Tencent Cloud). */
  SMS_ACCESS_KEY_ID: z.string().min(1).max(256).optional(),
  /** The provider's AccessKey secret (Aliyun) or SecretKey (Tencent Cloud). Never sent to the browser. */
  SMS_ACCESS_KEY_SECRET: z.string().min(1).max(256).optional(),
  /** The approved SMS signature (签名), e.g. 公共资源交易平台. */
  SMS_SIGN_NAME: z.string().min(1).max(40).optional(),
  /** The approved verification-code template (Aliyun TemplateCode such as SMS_123456789, Tencent TemplateId); its one parameter is `code`. */
  SMS_TEMPLATE_CODE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a template id such as SMS_123456789')
    .optional(),
  /** Tencent Cloud only: the SMS application's SdkAppId. */
  SMS_SDK_APP_ID: z
    .string()
    .regex(/^\d{5,20}$/, 'must be the SMS SdkAppId (digits)')
    .optional(),
  /** The provider's API address (a test or a proxy may stand in); the provider's public endpoint unless set. */
  SMS_ENDPOINT: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  /** The provider's region (Aliyun cn-hangzhou, Tencent ap-guangzhou by default). */
  SMS_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'must be a region name such as cn-hangzhou')
    .optional(),
  /** Milliseconds to wait for the SMS provider. */
  SMS_TIMEOUT_MS: intIn(100, 60_000).default(5000),
  /** Days after which a password must be changed (the user centre forces the change dialog); 0: never. */
  PASSWORD_MAX_AGE_DAYS: intIn(0, 3650).default(90),
  // @config:ca — CA certificate sign-in (CA锁): trusted roots, and the browser's local signing agent
  /** A PEM bundle of the CA certificates trusted to issue enterprise certificates; unset: CA sign-in is not configured. */
  CA_TRUSTED_ROOTS: z.string().min(1).max(1000).optional(),
  /** The local signing agent (the CA vendor's HTTP service on the user's machine) the browser asks for certificates. */
  CA_AGENT_URL: z
    .string()
    .url('must be an http(s) URL')
    .regex(/^https?:\/\/[^/?#]+\/?([^?#]*)$/, 'must be an http(s) URL without query or fragment')
    .optional(),
});

/** WeChat settings go together: the AppID, its secret and the redirect base, or none of them. */
function wechatProblems(env: z.infer<typeof envSchema>): string[] {
  const set = ['WECHAT_APP_ID', 'WECHAT_APP_SECRET', 'WECHAT_REDIRECT_BASE'] as const;
  const given = set.filter((k) => env[k] !== undefined);
  if (given.length === 0 || given.length === set.length) return [];
  return set.filter((k) => env[k] === undefined).map((k) => `${k}: required when ${given.join(', ')} is set`);
}

/** The guarantee issuer's address and key go together, or neither is set. */
function guaranteeProblems(env: z.infer<typeof envSchema>): string[] {
  const set = ['GUARANTEE_ISSUER_URL', 'GUARANTEE_ISSUER_KEY'] as const;
  const given = set.filter((k) => env[k] !== undefined);
  if (given.length === 0 || given.length === set.length) return [];
  return set.filter((k) => env[k] === undefined).map((k) => `${k}: required when ${given.join(', ')} is set`);
}

/** SMS settings: a provider needs its keys, signature and template; the dev outbox is refused in production. */
function smsProblems(env: z.infer<typeof envSchema>): string[] {
  const provider = env.SMS_PROVIDER ?? (env.NODE_ENV === 'production' ? null : 'outbox');
  if (provider === null || (provider === 'outbox' && env.NODE_ENV === 'production')) {
    return [
      "SMS_PROVIDER: the developers' outbox cannot be used in production (set SMS_PROVIDER=aliyun or tencent with its keys, or SMS_PROVIDER=off)",
    ];
  }
  if (provider !== 'aliyun' && provider !== 'tencent') return [];
  const needed = ['SMS_ACCESS_KEY_ID', 'SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_CODE'] as const;
  const missing: string[] = needed.filter((k) => env[k] === undefined);
  if (provider === 'tencent' && env.SMS_SDK_APP_ID === undefined) missing.push('SMS_SDK_APP_ID');
  return missing.map((k) => `${k}: required when SMS_PROVIDER=${provider}`);
}

/** S3 settings go together: a bucket needs its keys, and keys or an endpoint without a bucket are a mistake. */
function s3Problems(env: z.infer<typeof envSchema>): string[] {
  const set = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  if (!env.S3_BUCKET) {
    return set
      .filter((k) => env[k] !== undefined)
      .map((k) => `${k}: needs S3_BUCKET (set S3_BUCKET to use object storage)`);
  }
  return (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
    .filter((k) => env[k] === undefined)
    .map((k) => `${k}: required when S3_BUCKET is set`);
}

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof envSchema>, cwd: string) {
  const dataDir = path.resolve(cwd, env.DATA_DIR);
  const production = env.NODE_ENV === 'production';
  return {
    nodeEnv: env.NODE_ENV,
    production,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    dbPoolSize: env.DB_POOL_SIZE,
    /** Seed the demo dataset on an empty database: always outside production, in production only with SEED_DEMO=1. */
    seedDemo: env.SEED_DEMO ?? !production,
    logLevel: env.LOG_LEVEL,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    passwordHashThreads: env.PASSWORD_HASH_THREADS ?? defaultHashThreads(),
    sessionTtlMinutes: env.SESSION_TTL_MINUTES,
    singleSession: env.SINGLE_SESSION,
    loginAddressCaptchaAfter: env.LOGIN_ADDRESS_CAPTCHA_AFTER,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: env.LOGIN_RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    trustProxy: env.TRUST_PROXY,
    platformName: env.PLATFORM_NAME,
    timeZone: env.APP_TZ,
    platformOverrides: {
      describe: env.PLATFORM_DESCRIBE,
      filingsCoding: env.PLATFORM_FILING_CODE,
      phone: env.SERVICE_PHONE,
    },
    loginMode: env.LOGIN_MODE,
    bidHallUrl: env.BID_HALL_URL ?? null,
    webDist: env.WEB_DIST === undefined ? null : env.WEB_DIST === '' ? '' : path.resolve(cwd, env.WEB_DIST),
    files: {
      s3: env.S3_BUCKET
        ? {
            endpoint: env.S3_ENDPOINT ?? null,
            region: env.S3_REGION,
            bucket: env.S3_BUCKET,
            accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
            forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
          }
        : null,
      uploadMaxBytes: env.UPLOAD_MAX_MB * 1024 * 1024,
      chunkedMaxBytes: env.CHUNKED_UPLOAD_MAX_MB * 1024 * 1024,
      taskTtlMs: env.UPLOAD_TASK_TTL_HOURS * 3600_000,
    },
    sms: {
      provider: env.SMS_PROVIDER ?? (production ? 'off' : 'outbox'),
      accessKeyId: env.SMS_ACCESS_KEY_ID ?? '',
      accessKeySecret: env.SMS_ACCESS_KEY_SECRET ?? '',
      signName: env.SMS_SIGN_NAME ?? '',
      templateCode: env.SMS_TEMPLATE_CODE ?? 'SMS_VERIFY_CODE',
      sdkAppId: env.SMS_SDK_APP_ID ?? '',
      endpoint: env.SMS_ENDPOINT ?? null,
      region: env.SMS_REGION ?? null,
      timeoutMs: env.SMS_TIMEOUT_MS,
    },
    passwordMaxAgeDays: env.PASSWORD_MAX_AGE_DAYS,
    weather: {
      key: env.AMAP_WEATHER_KEY ?? null,
      city: env.AMAP_WEATHER_CITY,
      url: env.AMAP_WEATHER_URL,
      timeoutMs: env.AMAP_WEATHER_TIMEOUT_MS,
    },
    guarantee: {
      issuer:
        env.GUARANTEE_ISSUER_URL && env.GUARANTEE_ISSUER_KEY
          ? {
              url: env.GUARANTEE_ISSUER_URL.replace(/\/+$/, ''),
              key: env.GUARANTEE_ISSUER_KEY,
              name: env.GUARANTEE_ISSUER_NAME,
              timeoutMs: env.GUARANTEE_ISSUER_TIMEOUT_MS,
            }
          : null,
      pollSeconds: env.GUARANTEE_POLL_SECONDS,
    },
    dex: {
      upstream:
        env.DEX_UPSTREAM_URL && env.DEX_APP_ID && env.DEX_APP_SECRET
          ? {
              url: env.DEX_UPSTREAM_URL.replace(/\/+$/, ''),
              appId: env.DEX_APP_ID,
              appSecret: env.DEX_APP_SECRET,
              timeoutMs: env.DEX_TIMEOUT_MS,
            }
          : null,
      maxAttempts: env.DEX_MAX_ATTEMPTS,
      backoffMs: env.DEX_BACKOFF_MS,
      pollMs: env.DEX_POLL_MS,
      syncPageSize: env.DEX_SYNC_PAGE_SIZE,
    },
    wechat:
      env.WECHAT_APP_ID && env.WECHAT_APP_SECRET && env.WECHAT_REDIRECT_BASE
        ? {
            appId: env.WECHAT_APP_ID,
            appSecret: env.WECHAT_APP_SECRET,
            redirectBase: env.WECHAT_REDIRECT_BASE.replace(/\/+$/, ''),
            openUrl: env.WECHAT_OPEN_URL.replace(/\/+$/, ''),
            apiUrl: env.WECHAT_API_URL.replace(/\/+$/, ''),
            timeoutMs: env.WECHAT_TIMEOUT_MS,
          }
        : null,
    refreshTtlMs: env.REFRESH_TOKEN_TTL_HOURS * 3600_000,
    /**
     * Other sign-in methods, as far as the login-mode answer needs to know: CA when trusted roots are configured
     * (CA_TRUSTED_ROOTS), SMS unless it is switched off (SMS_PROVIDER=off).
     */
    signInMethods: {
      ca: Boolean(env.CA_TRUSTED_ROOTS),
      sms: (env.SMS_PROVIDER ?? (production ? 'off' : 'outbox')) !== 'off',
    },
    ca: {
      /** absolute path of the trusted roots' PEM bundle, or null */
      trustedRoots: env.CA_TRUSTED_ROOTS ? path.resolve(cwd, env.CA_TRUSTED_ROOTS) : null,
      agentUrl: env.CA_AGENT_URL ? env.CA_AGENT_URL.replace(/\/+$/, '') : null,
    },
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads configuration from an environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
    else if (key === 'WEB_DIST' && v === '') picked[key] = '';
  }
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message} (got "${picked[String(i.path[0])] ?? ''}")`),
    );
  }
  const s3 = s3Problems(parsed.data);
  if (s3.length) throw new ConfigError(s3);
  const wechat = wechatProblems(parsed.data);
  if (wechat.length) throw new ConfigError(wechat);
  const sms = smsProblems(parsed.data);
  if (sms.length) throw new ConfigError(sms);
  const guarantee = guaranteeProblems(parsed.data);
  if (guarantee.length) throw new ConfigError(guarantee);
  return toConfig(parsed.data, cwd);
}
