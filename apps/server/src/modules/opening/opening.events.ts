/**
 * How the hall reads an entry of the tamper-evident log (the entry's payload is what was hashed; this is only its
 * Chinese wording). Before the opening starts, entries about bids and sign-ins name nobody (`secret`).
 */
type Payload = Record<string, unknown>;

const s = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const short = (h: unknown) => s(h).slice(0, 12);

export function eventText(kind: string, p: Payload, o: { secret: boolean; money: (v: number) => string }): string {
  const who = s(p.enterpriseName) || '投标人';
  switch (kind) {
    case 'bid.sealed':
      return o.secret
        ? `一份投标文件已加密封存（密文 SHA-256 ${short(p.cipherSha256)}…）`
        : `投标文件已加密封存（密文 SHA-256 ${short(p.cipherSha256)}…）`;
    case 'bid.withdrawn':
      return '一份投标文件已撤回';
    case 'opening.signin':
      return o.secret ? '一家投标人已签到' : `${who}签到`;
    case 'opening.failed':
      return `流标：${s(p.reason)}`;
    case 'opening.started': {
      const n = Array.isArray(p.bids) ? p.bids.length : 0;
      return `开标：${n} 份投标文件，解密时限 ${s(p.decryptMinutes)} 分钟；唱标顺序随机种子的 SHA-256 承诺 ${short(p.seedCommitment)}…`;
    }
    case 'bid.decrypted':
      return `${who}的投标文件解密成功，密文与明文哈希与封存回执一致`;
    case 'bid.decrypt_refused':
      return `${who}在解密时限之后提交文件密钥，被拒绝`;
    case 'bid.excluded':
      return `${who}：${s(p.reason)}`;
    case 'opening.order_drawn': {
      const order = Array.isArray(p.order) ? (p.order as Payload[]) : [];
      const k = p.k as { value?: number; candidates?: number[] } | undefined;
      const drawnK =
        k?.value !== undefined
          ? `；评审系数 K 随机抽取为 ${Number(k.value).toFixed(2)}（备选 ${(k.candidates ?? []).map((v) => Number(v).toFixed(2)).join('、')}）`
          : '';
      return `公开随机种子 ${short(p.seed)}…，唱标顺序：${order.map((x, i) => `${i + 1}. ${s(x.enterpriseName)}`).join('；') || '无'}${drawnK}`;
    }
    case 'opening.read':
      return `唱标第 ${s(p.order)} 家：${who}，投标报价 ${o.money(Number(p.price))}，工期 ${s(p.durationDays)} 日历天，质量标准 ${s(p.quality)}，项目经理 ${s(p.manager)}`;
    case 'opening.confirmed':
      return `${who}确认开标结果`;
    case 'opening.objection':
      return `${who}提出异议：${s(p.text)}`;
    case 'opening.answered':
      return `答复${who}的异议：${s(p.answer)}`;
    case 'opening.closed': {
      const un = Array.isArray(p.unconfirmed) ? (p.unconfirmed as string[]) : [];
      return `开标结束：唱标 ${s(p.read)} 家${Number(p.excluded) ? `，${s(p.excluded)} 家逾期未解密` : ''}${un.length ? `；未确认：${un.join('、')}` : '；投标人均已确认'}`;
    }
    default:
      return kind;
  }
}
