// What the venue feature offers other features (they may import a feature only through its index.ts): the booking
// panel the five-in-one project detail's 场地预约 tab embeds — `VenueBookingPanel({ sectionId, subject })`.
export { VenueBookingPanel, type VenueBookingPanelProps } from './VenueBookingPanel';
