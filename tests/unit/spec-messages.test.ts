import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every message string of the spec's sections 5 (validation) and 8 (error catalogue), and the
 * dashboard's 'Access Denied' of section 2, copied exactly (a "created/updated/deleted" message is
 * its three messages). Each must be declared in the code under src/ (the UI shows that text) and
 * asserted by at least one browser test (tests/browser/*.test.ts), which makes the UI show it:
 * a message no browser test drives onto the screen fails here. tests/browser/spec-messages.test.ts
 * drives the failure messages no other browser test reached.
 */
const SPEC_MESSAGES: [section: string, message: string][] = [
  ['2', 'Access Denied'],
  ['2', "You don't have permission to access this area."],
  ['5', 'First name required'],
  ['5', 'Please enter your first name.'],
  ['5', 'SMS consent required'],
  ['5', 'Please check the box to consent to receiving text messages.'],
  ['5', 'Please fill in all fields'],
  ['5', 'Please enter your email address'],
  ['5', 'Missing required fields'],
  ['5', 'Please fill in title, slug, content, and author.'],
  ['5', 'Please complete the CAPTCHA'],
  ['5', 'Image upload failed. Please try again.'],
  ['5', 'Are you sure you want to delete this user? This action cannot be undone.'],
  ['5', 'Password must be at least 6 characters'],
  ['5', 'Passwords do not match'],
  ['5', 'Please enter a valid email address'],
  ['8', 'Login failed'],
  ['8', 'Invalid credentials'],
  ['8', 'Welcome back!'],
  ['8', 'Successfully logged in.'],
  ['8', 'Logged out successfully'],
  ['8', 'useAuth must be used within an AuthProvider'],
  ['8', 'Error'],
  ['8', 'Failed to send temporary password'],
  ['8', 'Temporary Password Sent'],
  ['8', 'Failed to send password reset email'],
  ['8', 'Failed to send password reset email. Please try again.'],
  ['8', 'Invalid Reset Link'],
  ['8', 'Reset Failed'],
  ['8', 'Failed to reset password'],
  ['8', 'Subscription failed'],
  ['8', 'Please try again later'],
  ['8', 'Successfully subscribed!'],
  ['8', "You're signed up for text messages!"],
  ['8', 'Failed to update metric'],
  ['8', 'Failed to update goal'],
  ['8', 'Failed to update milestone'],
  ['8', 'Failed to update article'],
  ['8', 'Failed to delete article'],
  ['8', 'Failed to create event'],
  ['8', 'Failed to update event'],
  ['8', 'Failed to delete event'],
  ['8', 'Failed to update social media link'],
  ['8', 'Authentication required'],
  ['8', 'Please log in again to continue.'],
  ['8', 'Failed to create article'],
  ['8', 'Please check your input and try again.'],
  ['8', 'Failed to create user'],
  ['8', 'Failed to update user'],
  ['8', 'Failed to delete user'],
  ['8', 'An error occurred while creating the user'],
  ['8', 'An error occurred while updating the user'],
  ['8', 'An error occurred while deleting the user'],
  ['8', 'Metric updated successfully!'],
  ['8', 'Goal updated successfully!'],
  ['8', 'Milestone updated successfully!'],
  ['8', 'Article created successfully!'],
  ['8', 'Article updated successfully!'],
  ['8', 'Article deleted successfully!'],
  ['8', 'Event created successfully!'],
  ['8', 'Event updated successfully!'],
  ['8', 'Event deleted successfully!'],
  ['8', 'Social media link updated successfully!'],
  ['8', 'User created successfully!'],
  ['8', 'User updated successfully!'],
  ['8', 'User deleted successfully!'],
  ['8', 'Thank you for volunteering!'],
  ['8', 'Failed to send message'],
  ['8', 'Please try again later or contact us directly.'],
  ['8', 'Message sent successfully!'],
  ['8', "We'll get back to you within 24 hours."],
  ['8', 'Link copied!'],
];

const root = process.cwd();
function files(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, pattern));
    else if (pattern.test(e.name)) out.push(p);
  }
  return out;
}
const read = (paths: string[]) => paths.map((p) => readFileSync(p, 'utf8'));
const source = read(files(join(root, 'src'), /\.(ts|tsx|astro|mts)$/));
const browserTests = read(files(join(root, 'tests', 'browser'), /\.test\.ts$/));

describe('spec messages (sections 2, 5 and 8)', () => {
  it('the table has each message once', () => {
    const messages = SPEC_MESSAGES.map(([, m]) => m);
    expect(new Set(messages).size).toBe(messages.length);
    expect(messages.length).toBeGreaterThan(60);
  });

  it.each(SPEC_MESSAGES)('section %s: %j is in the code and shown by a browser test', (_, message) => {
    expect(
      source.some((text) => text.includes(message)),
      'declared under src/',
    ).toBe(true);
    expect(
      browserTests.some((text) => text.includes(message)),
      'asserted by a browser test',
    ).toBe(true);
  });
});
