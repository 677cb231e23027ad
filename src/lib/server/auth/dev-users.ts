/**
 * STUB (content branch): the lead owns this file and replaces it with the
 * real dev admin/editor/viewer seeding. Kept so seed.ts can call it.
 */
export async function seedDevUsers(): Promise<void> {}
