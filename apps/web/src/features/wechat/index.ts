// What the wechat feature offers other features (through this file only): the sign-in page's 微信扫码登录 entry and
// the user centre's 微信绑定 and 登录设备 sections (issue 15).
export { LoginDevices } from './LoginDevices';
export { WechatBindings } from './WechatBindings';
export { WechatLoginEntry } from './WechatLoginEntry';
