// The page's language, as Django rendered it on <html lang>: what the page kit and the card faces read.

/** Whether this page is in English (Chinese otherwise, the default). */
export const ENGLISH = (document.documentElement.lang || "").toLowerCase().startsWith("en");
