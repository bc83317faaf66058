/** The brand colour (spec §9 navigation colour); antd-free so portal pages can use it. */
export const PRIMARY_COLOR = '#1362fc';
