/** Where the sealed-bid pages are (issue 16): the bidder's bid files, and the test-decryption tool. */
export const BID_FILES_PATH = '/sealedBid/index';
export const BID_TOOL_PATH = '/sealedBid/tool';
export const bidToolHref = (sectionId: string) => `${BID_TOOL_PATH}?${new URLSearchParams({ sectionId })}`;
