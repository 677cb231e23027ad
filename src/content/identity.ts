/**
 * Who the campaign is: the one place for the candidate's name and the
 * committee's contact details. The name is a placeholder (docs/decisions.md).
 */
export const IDENTITY = {
  candidateName: 'Jordan Avery',
  candidateFirstName: 'Jordan',
  city: 'New Orleans',
  state: 'Louisiana',
  office: 'Mayor',
  committeeName: 'Jordan Avery for Mayor Campaign Committee',
  /** Short program name used in text messages. */
  smsProgramName: 'Avery for Mayor',
  emails: {
    general: 'info@averyformayor.com',
    events: 'events@averyformayor.com',
    press: 'press@averyformayor.com',
    volunteer: 'volunteer@averyformayor.com',
  },
  phone: '(504) 555-0142',
  address: '1000 Canal Street, Suite 200, New Orleans, LA 70112',
} as const;
