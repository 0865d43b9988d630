/** The longest note fields, in characters: the same for `PUT /notes` and for imported packages. */
export const NOTE_LIMITS = { fact_status: 2000, comment: 20000 } as const;
