// What the message centre offers others: the header bell (the signed-in shell places it).
export { MessageBell } from './MessageBell';
