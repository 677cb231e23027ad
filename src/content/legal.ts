import type { LegalDocument } from '../lib/schemas/content';
import { candidate } from './campaign.ts';
import { IDENTITY } from './identity.ts';
import { textSignup } from './home.ts';

/*
 * Terms of Use (spec section 2 "Terms of Use") and the Privacy Policy (content not
 * given by the spec; written for this campaign, see docs/decisions/170-campaign-copy-and-identity.md).
 */

const committee = candidate.committeeName;
const site = `the ${committee} website`;

/** Days of notice attempted before material changes to the terms (spec section 9). */
export const termsChangeNoticeDays = 30;

export const termsOfUse = {
  title: 'Terms of Use',
  lastUpdated: { iso: '2025-09-17', label: 'September 17, 2025' },
  intro: `These Terms of Use govern your use of ${site}, operated by ${committee} ("the Campaign", "we", "us"). Please read them carefully.`,
  sections: [
    {
      id: 'acceptance',
      heading: 'Acceptance of Terms',
      paragraphs: [
        'By accessing or using this website, signing up for updates, volunteering or making a contribution, you agree to these Terms of Use and to our Privacy Policy. If you do not agree, please do not use the website.',
      ],
    },
    {
      id: 'website-usage',
      heading: 'Website Usage Purposes',
      paragraphs: [
        `This website provides information about ${candidate.fullName}'s campaign for ${candidate.office} of ${candidate.city}, and lets visitors read news and events, volunteer, contribute, contact the Campaign and sign up for updates.`,
      ],
    },
    {
      id: 'user-responsibilities',
      heading: 'User Responsibilities',
      paragraphs: ['When you use this website you agree to:'],
      list: [
        'provide true, accurate and current information in any form you submit;',
        'submit only your own contact information, or information you are authorized to provide;',
        'comply with all applicable laws, including campaign-finance laws; and',
        'keep any staff account credentials confidential.',
      ],
    },
    {
      id: 'prohibited-activities',
      heading: 'Prohibited Activities',
      paragraphs: ['You may not:'],
      list: [
        'use the website for any unlawful, fraudulent or harassing purpose;',
        'impersonate any person or misrepresent your affiliation with any person or organization;',
        'attempt to gain unauthorized access to the website, its servers or staff accounts;',
        'interfere with the website, including by sending malicious code or automated traffic; or',
        'scrape, copy or republish website content in a way that suggests the Campaign endorses you.',
      ],
    },
    {
      id: 'political-communications',
      heading: 'Political Communications',
      paragraphs: [
        `Content on this website is political communication paid for by ${committee}. Statements of the Campaign's positions are opinions and plans, not guarantees of any government action.`,
      ],
    },
    {
      id: 'mobile-messaging',
      heading: 'Mobile Messaging Program Consent',
      paragraphs: [
        `By opting in through the "${textSignup.heading}" form and checking the consent box, you agree to receive recurring text messages from ${committee}, including polling and voting information and public-service announcements. Consent is not a condition of any purchase or contribution.`,
        'Messages may be sent using an automatic telephone dialing system (autodialer). Message frequency varies. Message and data rates may apply. Carriers are not liable for delayed or undelivered messages.',
        'Reply STOP at any time to unsubscribe; you will receive one final message confirming that you have opted out. Reply HELP for help.',
        'Mobile phone numbers and text-messaging consent are never sold or shared with third parties or affiliates for their marketing purposes.',
      ],
    },
    {
      id: 'donation-terms',
      heading: 'Donation Terms',
      paragraphs: [
        'Contributions are processed by a third-party donation provider and are subject to its terms. Contributions are not tax-deductible. By contributing you certify that you are a U.S. citizen or lawfully admitted permanent resident, that the contribution is made from your own funds and that you will not be reimbursed for it.',
        'The Campaign must report contributor information as required by Louisiana campaign-finance law. Contributions that exceed legal limits or come from prohibited sources will be refunded.',
      ],
    },
    {
      id: 'intellectual-property',
      heading: 'Intellectual Property',
      paragraphs: [
        "The website's text, logos, photographs, videos and design belong to the Campaign or its licensors. You may share links and quote brief excerpts for non-commercial, non-misleading purposes; any other use requires the Campaign's written permission.",
      ],
    },
    {
      id: 'third-party-links',
      heading: 'Third-Party Links',
      paragraphs: [
        'The website links to and embeds third-party services, such as the donation provider, video hosting and social media. The Campaign does not control and is not responsible for their content, terms or privacy practices.',
      ],
    },
    {
      id: 'disclaimers',
      heading: 'Disclaimers',
      paragraphs: [
        'The website is provided "as is" and "as available", without warranties of any kind. The Campaign does not warrant that it will be uninterrupted or error-free. To the fullest extent permitted by law, the Campaign is not liable for any indirect or consequential damages arising from your use of the website.',
      ],
    },
    {
      id: 'privacy',
      heading: 'Privacy',
      paragraphs: [
        'Your use of the website is also governed by our Privacy Policy, which explains what information we collect and how we use it.',
      ],
    },
    {
      id: 'termination',
      heading: 'Termination',
      paragraphs: [
        'The Campaign may suspend or end your access to the website or its programs at any time, without notice, if you violate these terms.',
      ],
    },
    {
      id: 'governing-law',
      heading: 'Governing Law',
      paragraphs: [
        `These terms are governed by the laws of the State of ${candidate.state}, without regard to its conflict-of-law rules. Any dispute will be resolved in the state or federal courts located in ${candidate.state}.`,
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to Terms',
      paragraphs: [
        `The Campaign may update these terms from time to time. For material changes, we will attempt to give at least ${termsChangeNoticeDays} days notice on this page or by another reasonable means. Continued use of the website after changes take effect means you accept them.`,
      ],
    },
    {
      id: 'contact',
      heading: 'Contact Information',
      paragraphs: [
        `Questions about these terms can be sent to ${IDENTITY.emails.general} or by phone at ${IDENTITY.phone.display}.`,
      ],
    },
    {
      id: 'acknowledgment',
      heading: 'Acknowledgment',
      paragraphs: [
        'By using this website you acknowledge that you have read these Terms of Use, understand them and agree to be bound by them.',
      ],
    },
  ],
} satisfies LegalDocument;

export const privacyPolicy = {
  title: 'Privacy Policy',
  lastUpdated: termsOfUse.lastUpdated,
  intro: `This Privacy Policy explains what information ${committee} ("the Campaign", "we", "us") collects through this website and its text-messaging program, how we use it and the choices you have.`,
  sections: [
    {
      id: 'information-we-collect',
      heading: 'Information We Collect',
      paragraphs: ['We collect only what you give us and what is needed to run the website:'],
      list: [
        'Text-message sign-up: first name, mobile phone number, email address (optional) and a record of your consent: the consent wording you agreed to, the page, the date and time, and your IP address and browser type.',
        'Volunteer sign-up: name, email, phone, mailing address and the ways you would like to help.',
        'Contact form: name, email, phone (optional), subject and your message.',
        'Donations: handled by a third-party donation provider (see "Donations" below).',
        'Technical data: pages visited, browser type and approximate location derived from your IP address, collected by our hosting and analytics providers.',
      ],
    },
    {
      id: 'how-we-use',
      heading: 'How We Use Information',
      paragraphs: ['We use your information to:'],
      list: [
        'send the campaign updates and text messages you asked for;',
        'coordinate volunteers and respond to your messages;',
        'comply with campaign-finance, election and telecommunications laws;',
        'protect the website against spam, fraud and abuse; and',
        'understand which pages are useful so we can improve the website.',
      ],
    },
    {
      id: 'text-messaging',
      heading: 'Text Messaging',
      paragraphs: [
        'We send text messages only to people who opt in. We keep a record of each opt-in and opt-out to honor your choice. Reply STOP to stop messages and HELP for help; message and data rates may apply.',
        'We never sell or share mobile phone numbers or text-messaging consent with third parties or affiliates for their marketing purposes. Our text-messaging provider processes numbers only to deliver our messages.',
      ],
    },
    {
      id: 'donations',
      heading: 'Donations',
      paragraphs: [
        'Contributions are made through a third-party donation provider embedded on the Donate page. Your payment card details go directly to that provider; the Campaign never receives or stores them. The provider shares with us the contributor details that campaign-finance law requires us to collect and report, such as name, address, employer and occupation, and these may become public in our finance reports.',
      ],
    },
    {
      id: 'analytics-cookies',
      heading: 'Analytics and Cookies',
      paragraphs: [
        'We record page views (the page address and time) with a web-analytics service to understand how the website is used. Public pages do not set advertising or tracking cookies. Staff who sign in to the dashboard receive a session cookie that is needed to keep them signed in.',
        'Embedded videos and the donation form are provided by third parties, which may set their own cookies under their own policies when you use them.',
      ],
    },
    {
      id: 'sharing',
      heading: 'How We Share Information',
      paragraphs: [
        'We do not sell your personal information. We share it only with service providers that help us run the campaign (website hosting, email, text messaging, spam protection and donation processing), under obligations to protect it; with authorities when the law requires, including campaign-finance reporting; and with your consent.',
      ],
    },
    {
      id: 'retention-security',
      heading: 'Retention and Security',
      paragraphs: [
        'We keep information for as long as the campaign needs it and as long as the law requires records to be kept. Consent records are kept to prove your choices. We protect data with access controls, encrypted connections and limited staff access; no system is perfectly secure, so please do not send sensitive information through the contact form.',
      ],
    },
    {
      id: 'your-choices',
      heading: 'Your Choices',
      paragraphs: [
        `You can stop text messages at any time by replying STOP. To see, correct or delete the information we hold about you, email ${IDENTITY.emails.privacy}. Some records, such as contribution and consent records, must be kept by law.`,
      ],
    },
    {
      id: 'children',
      heading: "Children's Privacy",
      paragraphs: [
        'The website is not directed to children under 13 and we do not knowingly collect their information. If you believe a child has given us information, contact us and we will delete it.',
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to This Policy',
      paragraphs: [
        'We may update this policy from time to time. The date at the top shows when it last changed.',
      ],
    },
    {
      id: 'contact',
      heading: 'Contact Us',
      paragraphs: [`Questions about this policy: ${IDENTITY.emails.privacy} or ${IDENTITY.phone.display}.`],
    },
  ],
} satisfies LegalDocument;
