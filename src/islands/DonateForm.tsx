import { useEffect, useState } from 'react';
import { withAttribution } from '../lib/client/attribution.ts';
import type { IslandUi } from '../content/ui.ts';
import { buildDonationUrl, DONATION_PRESETS } from '../lib/donate.ts';
import '../styles/islands.css';

interface Props {
  /** PUBLIC_DONATION_URL: the provider's embeddable form. Empty: a notice instead of a frame. */
  providerUrl?: string | undefined;
  /** PUBLIC_DONATION_AMOUNT_PARAM (default "amount"). */
  amountParam?: string | undefined;
  /** The form's words in the page's language (src/content/ui.ts `islandUi`). */
  words: Pick<
    IslandUi,
    'chooseAmount' | 'donationFrame' | 'donationsNotConfigured' | 'donationsNotConfiguredText'
  >;
}

/**
 * Donation presets and the provider's form in a frame (spec sections 2, 9).
 * The chosen amount, plus refcode/utm_* from this page's URL, go into the
 * frame's query string so the provider pre-fills it and attributes the gift.
 */
export default function DonateForm({ providerUrl, amountParam, words }: Props) {
  const [amount, setAmount] = useState<number | null>(null);
  const [search, setSearch] = useState<string | null>(null);

  useEffect(() => {
    // A refcode from the landing page of this visit counts when /donate itself has none.
    setSearch(withAttribution(location.search));
    const preset = Number(new URLSearchParams(location.search).get('amount'));
    if ((DONATION_PRESETS as readonly number[]).includes(preset)) setAmount(preset);
  }, []);

  const frameUrl = buildDonationUrl({ baseUrl: providerUrl, amount, pageSearch: search ?? '', amountParam });

  return (
    <div className="donate-form">
      <div className="donate-presets" role="group" aria-label={words.chooseAmount}>
        {DONATION_PRESETS.map((value) => (
          <button
            key={value}
            type="button"
            className={`btn ${amount === value ? 'btn--primary' : 'btn--outline'}`}
            aria-pressed={amount === value}
            onClick={() => setAmount(value)}
          >
            ${value.toLocaleString('en-US')}
          </button>
        ))}
      </div>
      {/* Until hydrated the page's refcode is unknown: hold the frame's space instead of loading it twice. */}
      {frameUrl && search === null ? (
        <div className="donate-frame donate-frame--pending" />
      ) : frameUrl ? (
        <iframe
          key={frameUrl}
          className="donate-frame"
          src={frameUrl}
          title={words.donationFrame}
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
          allow="payment"
        />
      ) : (
        <div className="notice notice--warn" role="status">
          <p>
            <strong>{words.donationsNotConfigured}</strong> {words.donationsNotConfiguredText}
          </p>
        </div>
      )}
    </div>
  );
}
