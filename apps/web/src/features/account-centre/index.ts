// The user centre's sections (issue 15) and the password-age check of the signed-in layout.
export { LoginHistorySection } from './LoginHistorySection';
export { PasswordAgeCheck } from './PasswordAgeCheck';
export { PasswordSection } from './PasswordSection';
export { PhoneSection } from './PhoneSection';
export { PortraitSection } from './PortraitSection';
