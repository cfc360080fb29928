/**
 * Where the served chat page carries its locale: a JSON script element with this id. Apart
 * from locale.ts so the host's activation shell can name it without loading zod.
 */
export const LOCALE_ELEMENT_ID = 'keel-locale';
