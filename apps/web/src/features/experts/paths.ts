/** Where the expert extraction pages are (spec §2 /expertExtraction/extractList; the verification is public). */
export const EXTRACTION_LIST_PATH = '/expertExtraction/extractList';
export const EXTRACTION_VERIFY_PATH = '/expertExtraction/verify';
export const EXTRACTION_PRINT_PATH = '/expertExtraction/extractRecord';
