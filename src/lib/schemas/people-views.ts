/**
 * What the People list answers (docs/decisions/149-people.md), declared once for the server
 * (src/lib/server/people/staff.ts) and the dashboard (src/admin/api/people.ts). Types only: no zod.
 */

/** One person in the list (and the base of a person's view). */
export interface PersonRow {
  id: string;
  name: string;
  /** null for viewers: no contact details. */
  emails: string[] | null;
  phones: string[] | null;
  zip: string;
  city: string;
  lang: string;
  sources: string[];
  emailState: string;
  textState: string;
  createdAt: string;
  /** Staff tags (every role reads them). */
  tags: string[];
}

/** A page of the list, newest first. */
export interface PeoplePage {
  items: PersonRow[];
  total: number;
  page: number;
  pageSize: number;
}
