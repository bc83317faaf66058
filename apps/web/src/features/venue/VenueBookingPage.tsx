import { VENUE_HOURS } from '@ks/contracts';
import { Typography } from 'antd';
import { Link } from 'react-router';
import { PageFrame } from '../../components/admin';
import { VenueBookingPanel } from './VenueBookingPanel';

/**
 * 场地预约 `/meetingVenue/booking` (the sidebar's 场地预约 for enterprise users): book a room of the trading centre and
 * manage one's bookings (VenueBookingPanel); the public availability of every room is at /venue.
 */
export default function VenueBookingPage() {
  return (
    <PageFrame section={{ title: '场地预约' }} title="预约场地">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }} data-testid="venue-booking-page">
        开放时间 {VENUE_HOURS.open}–{VENUE_HOURS.close}，以半小时为单位预约，最多可提前 90 天。各场地的占用情况见
        <Link to="/venue" target="_blank">
          场地占用公示
        </Link>
        。
      </Typography.Paragraph>
      <VenueBookingPanel />
    </PageFrame>
  );
}
