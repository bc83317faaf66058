import { randomBytes } from 'node:crypto';
import {
  Code,
  type LoginMethod,
  type LoginModeInfo,
  type LoginResponse,
  Msg,
  type WechatBinding,
  WechatMsg,
  type WechatPurpose,
  type WechatQrcode,
  type WechatScanState,
} from '@ks/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../platform/errors';
import { createWechatClient, type WechatClient, WechatError } from '../../platform/integrations/wechat';
import { writeOpLog } from '../../platform/oplog';
import type { AuthContext, AuthService } from '../auth/auth.service';
import * as repo from './wechat.repo';

/** A QR ticket is good this long (the page offers a new one after). */
export const TICKET_TTL_MS = 5 * 60_000;
/** A ticket scanned in time may still be collected by the page's next poll this long after it expired. */
const COLLECT_GRACE_MS = 60_000;

export interface WechatDeps {
  db: Db;
  auth: AuthService;
  config: Pick<Config, 'wechat' | 'loginMode' | 'signInMethods'>;
  now: () => Date;
  fetch?: typeof fetch;
  warn?: (msg: string) => void;
}

export interface ScanStatus {
  status: WechatScanState;
  message: string;
  binding?: WechatBinding;
  login?: LoginResponse;
}

const notConfigured = () => badRequest(WechatMsg.NOT_CONFIGURED);

/** openid shown partly: the first 4 and last 4 characters. */
const maskOpenid = (o: string) => (o.length <= 10 ? `${o.slice(0, 2)}****` : `${o.slice(0, 4)}****${o.slice(-4)}`);

export function toBinding(b: repo.BindingRow): WechatBinding {
  return {
    id: b.id,
    nickname: b.nickname,
    headimgurl: b.headimgurl,
    openid: maskOpenid(b.openid),
    boundAt: new Date(b.boundAt).toISOString(),
  };
}

export function createWechatService(deps: WechatDeps) {
  const { db, auth, now } = deps;
  const cfg = deps.config.wechat;
  const client: WechatClient | null = cfg ? createWechatClient(cfg, { fetch: deps.fetch }) : null;

  function requireClient(): { client: WechatClient; appId: string } {
    if (!client || !cfg) throw notConfigured();
    return { client, appId: cfg.appId };
  }

  /** The platform's login mode and the sign-in methods it offers now. */
  function loginMode(): LoginModeInfo {
    const methods: LoginMethod[] = ['password'];
    if (deps.config.signInMethods.sms) methods.push('sms');
    if (deps.config.signInMethods.ca) methods.push('ca');
    if (cfg) methods.push('wechat');
    return { loginMode: deps.config.loginMode, methods };
  }

  /** A new ticket: login (anyone) or bind (the signed-in caller). */
  async function qrcode(purpose: WechatPurpose, caller: AuthContext | null): Promise<WechatQrcode> {
    const { client: c, appId } = requireClient();
    if (purpose === 'bind') {
      if (!caller) throw unauthorized();
      if (await repo.bindingOfUser(db, caller.user.id, appId)) throw conflict(WechatMsg.ALREADY_BOUND);
    }
    const t = now();
    const state = randomBytes(24).toString('base64url');
    const expiresAt = new Date(t.getTime() + TICKET_TTL_MS);
    await repo.insertTicket(db, {
      state,
      purpose,
      userId: purpose === 'bind' ? caller!.user.id : null,
      createdAt: t,
      expiresAt,
    });
    if (Math.random() < 0.05) await repo.deleteStaleTickets(db, t);
    return { state, url: c.qrconnectUrl(state), purpose, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The redirect_uri callback: the ticket named by `state` must exist, be live and not scanned before (single use);
   * the code is traded for the user's openid/unionid (and profile), recorded on the ticket. Answers a short HTML page
   * for the QR frame (or the window the QR page was opened in).
   */
  async function verify(q: {
    code?: string;
    state?: string;
  }): Promise<{ status: number; title: string; text: string }> {
    if (!client || !cfg) return { status: 400, title: WechatMsg.NOT_CONFIGURED, text: '' };
    const page = (status: number, title: string, text = '') => ({ status, title, text });
    const ticket = q.state && /^[A-Za-z0-9_-]{16,64}$/.test(q.state) ? await repo.ticketOf(db, q.state) : undefined;
    if (!ticket) return page(400, WechatMsg.STATE_MISMATCH);
    const t = now();
    if (ticket.scannedAt || ticket.consumedAt) return page(409, WechatMsg.TICKET_USED);
    if (ticket.expiresAt.getTime() <= t.getTime()) return page(400, WechatMsg.TICKET_EXPIRED);
    if (!q.code) {
      await repo.recordScan(db, ticket.state, t, { denied: true });
      return page(200, WechatMsg.DENIED, '请回到原页面重新扫码。');
    }
    let identity: Awaited<ReturnType<WechatClient['exchangeCode']>>;
    try {
      identity = await client.exchangeCode(q.code);
    } catch (e) {
      if (e instanceof WechatError) {
        deps.warn?.(`wechat code exchange failed: ${e.message}`);
        return page(502, e.message, '请回到原页面刷新二维码后重试。');
      }
      throw e;
    }
    let profile = { nickname: '', headimgurl: null as string | null, unionid: identity.unionid };
    try {
      profile = await client.userInfo(identity.accessToken, identity.openid);
    } catch (e) {
      // the profile is a nicety: the sign-in or binding goes on without it
      if (!(e instanceof WechatError)) throw e;
      deps.warn?.(`wechat userinfo failed: ${e.message}`);
    }
    const recorded = await repo.recordScan(db, ticket.state, now(), {
      denied: false,
      openid: identity.openid,
      unionid: identity.unionid ?? profile.unionid,
      nickname: profile.nickname || '微信用户',
      headimgurl: profile.headimgurl,
    });
    if (!recorded) return page(409, WechatMsg.TICKET_USED);
    return page(
      200,
      '扫码成功',
      ticket.purpose === 'login' ? '正在登录，请回到原页面。' : '正在绑定微信，请回到原页面。',
    );
  }

  /**
   * The page's poll. Waiting / expired / denied; a scanned login ticket signs in the account bound to that WeChat
   * (or says it is bound to none); a scanned bind ticket binds it to the ticket's account. Either way once.
   */
  async function scanStatus(
    state: string,
    caller: AuthContext | null,
    meta: { ip: string; userAgent: string },
  ): Promise<ScanStatus> {
    const { appId } = requireClient();
    const ticket = await repo.ticketOf(db, state);
    if (!ticket) throw notFound(WechatMsg.TICKET_UNKNOWN);
    if (ticket.purpose === 'bind') {
      if (!caller) throw unauthorized();
      if (caller.user.id !== ticket.userId) throw forbidden(WechatMsg.NOT_OWN_TICKET);
    }
    if (ticket.consumedAt) throw badRequest(WechatMsg.TICKET_USED);
    const t = now();
    if (!ticket.scannedAt) {
      if (ticket.expiresAt.getTime() <= t.getTime()) return { status: 'expired', message: WechatMsg.TICKET_EXPIRED };
      return { status: 'waiting', message: WechatMsg.WAITING };
    }
    if (ticket.expiresAt.getTime() + COLLECT_GRACE_MS <= t.getTime()) {
      return { status: 'expired', message: WechatMsg.TICKET_EXPIRED };
    }
    if (ticket.denied) {
      await repo.consumeTicket(db, ticket.state, t);
      return { status: 'denied', message: WechatMsg.DENIED };
    }
    const openid = ticket.openid ?? '';
    return ticket.purpose === 'login'
      ? signIn(ticket, appId, openid, meta)
      : bind(ticket, appId, openid, caller as AuthContext);
  }

  async function signIn(
    ticket: repo.TicketRow,
    appId: string,
    openid: string,
    meta: { ip: string; userAgent: string },
  ): Promise<ScanStatus> {
    const t = now();
    const outcome = await db.transaction(async (tx) => {
      if (!(await repo.consumeTicket(tx, ticket.state, t))) throw badRequest(WechatMsg.TICKET_USED);
      const binding = await repo.bindingOfWechat(tx, appId, openid, ticket.unionid);
      if (!binding) return { kind: 'unbound' as const };
      const user = await repo.userById(tx, binding.userId);
      if (user?.status !== 'active') return { kind: 'disabled' as const };
      const pair = await auth.startSession(tx, user, meta, 'wechat', '微信扫码登录');
      return { kind: 'ok' as const, user, pair };
    });
    if (outcome.kind === 'unbound') return { status: 'unbound', message: WechatMsg.NOT_BOUND };
    if (outcome.kind === 'disabled') throw new AppError(403, Code.FORBIDDEN, Msg.ACCOUNT_DISABLED);
    return {
      status: 'success',
      message: WechatMsg.LOGIN_DONE,
      login: await auth.signInAnswer(outcome.user, outcome.pair),
    };
  }

  async function bind(ticket: repo.TicketRow, appId: string, openid: string, caller: AuthContext): Promise<ScanStatus> {
    const t = now();
    const profile = { nickname: ticket.nickname ?? '', headimgurl: ticket.headimgurl, unionid: ticket.unionid };
    // the ticket is spent whatever the outcome (committed before a refusal is answered)
    const outcome = await db.transaction(async (tx) => {
      if (!(await repo.consumeTicket(tx, ticket.state, t))) return { error: badRequest(WechatMsg.TICKET_USED) };
      const existing = await repo.bindingOfWechat(tx, appId, openid, ticket.unionid);
      if (existing && existing.userId !== caller.user.id) return { error: conflict(WechatMsg.BOUND_ELSEWHERE) };
      if (existing && existing.appId === appId) {
        return { binding: await repo.updateBindingProfile(tx, existing.id, profile) };
      }
      if (await repo.bindingOfUser(tx, caller.user.id, appId)) return { error: conflict(WechatMsg.ALREADY_BOUND) };
      let binding: repo.BindingRow;
      try {
        binding = await tx.transaction(async (sp) =>
          repo.insertBinding(sp, {
            userId: caller.user.id,
            appId,
            openid,
            ...profile,
            nickname: profile.nickname,
            boundAt: t,
          }),
        );
      } catch (e) {
        if (isUniqueViolation(e)) return { error: conflict(WechatMsg.BOUND_ELSEWHERE) };
        throw e;
      }
      await writeOpLog(tx, caller.actor, {
        glName: '账号',
        recordId: caller.user.id,
        logbook: `绑定微信（${binding.nickname || '微信用户'}）`,
      });
      return { binding };
    });
    if ('error' in outcome) throw outcome.error;
    return { status: 'bound', message: WechatMsg.BIND_DONE, binding: toBinding(outcome.binding) };
  }

  async function list(caller: AuthContext): Promise<WechatBinding[]> {
    return (await repo.bindingsOfUser(db, caller.user.id)).map(toBinding);
  }

  async function remove(caller: AuthContext, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const removed = await repo.deleteBinding(tx, caller.user.id, id);
      if (!removed) throw notFound(WechatMsg.BINDING_NOT_FOUND);
      await writeOpLog(tx, caller.actor, {
        glName: '账号',
        recordId: caller.user.id,
        logbook: `解除微信绑定（${removed.nickname || '微信用户'}）`,
      });
    });
  }

  return { configured: Boolean(cfg), loginMode, qrcode, verify, scanStatus, list, remove };
}

export type WechatService = ReturnType<typeof createWechatService>;
