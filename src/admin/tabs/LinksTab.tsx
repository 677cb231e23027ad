import QRCode from 'qrcode';
import { useEffect, useId, useState } from 'react';
import {
  LINK_PAGES,
  buildOutreachUrl,
  linkErrors,
  qrFileName,
  type LinkPage,
  type LinkTags,
} from '../../lib/outreach-links.ts';
import { SelectField, TextField } from '../components/Field.tsx';

/** The public site the links point to: the configured site URL, else this dashboard's origin. */
function siteOrigin(): string {
  const site = import.meta.env.SITE as string | undefined;
  return site && /^https?:\/\//.test(site) ? site : location.origin;
}

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/**
 * Links for print and outreach: a page, a refcode and UTM tags give the URL
 * and its QR code as SVG (vector, for yard signs) and PNG (1024 px, for
 * documents). Pure browser work: nothing is stored.
 */
export function LinksTab() {
  const id = useId();
  const [page, setPage] = useState<LinkPage>('donate');
  const [tags, setTags] = useState<LinkTags>({ refcode: '', utmSource: '', utmMedium: '', utmCampaign: '' });
  const [svg, setSvg] = useState<string | null>(null);
  const [png, setPng] = useState<string | null>(null);
  const errors = linkErrors(tags);
  const valid = Object.keys(errors).length === 0;
  const url = valid ? buildOutreachUrl(siteOrigin(), page, tags) : null;

  useEffect(() => {
    let cancelled = false;
    if (!url) {
      setSvg(null);
      setPng(null);
      return;
    }
    void Promise.all([
      QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' }),
      QRCode.toDataURL(url, { ...QR_OPTIONS, width: 1024 }),
    ]).then(([s, p]) => {
      if (cancelled) return;
      setSvg(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(s)}`);
      setPng(p);
    });
    return () => {
      cancelled = true;
    };
  }, [url]);

  const set = (k: keyof LinkTags) => (e: { target: { value: string } }) =>
    setTags((t) => ({ ...t, [k]: e.target.value }));

  return (
    <section aria-labelledby="links-heading" className="stack-lg">
      <div className="section-head">
        <div>
          <h2 id="links-heading">Outreach Links</h2>
          <p className="muted">
            Tag every email, ad, yard sign and door hanger: gifts that follow the link show up under its
            refcode in the Donations tab.
          </p>
        </div>
      </div>
      <div className="form-grid">
        <SelectField
          id={`${id}-page`}
          label="Page"
          value={page}
          onChange={(e) => setPage(e.target.value as LinkPage)}
          options={(Object.keys(LINK_PAGES) as LinkPage[]).map((p) => ({
            value: p,
            label: LINK_PAGES[p].label,
          }))}
        />
        <TextField
          id={`${id}-refcode`}
          label="Refcode"
          value={tags.refcode}
          onChange={set('refcode')}
          placeholder="yard-sign-mid-city"
          error={errors.refcode}
        />
        <TextField
          id={`${id}-source`}
          label="UTM source"
          value={tags.utmSource}
          onChange={set('utmSource')}
          placeholder="print"
          error={errors.utmSource}
        />
        <TextField
          id={`${id}-medium`}
          label="UTM medium"
          value={tags.utmMedium}
          onChange={set('utmMedium')}
          placeholder="yard-sign"
          error={errors.utmMedium}
        />
        <TextField
          id={`${id}-campaign`}
          label="UTM campaign"
          value={tags.utmCampaign}
          onChange={set('utmCampaign')}
          placeholder="gotv"
          error={errors.utmCampaign}
        />
      </div>
      {url ? (
        <div className="stack">
          <TextField
            id={`${id}-url`}
            label="Link"
            value={url}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
          />
          <div>
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => void navigator.clipboard?.writeText(url)}
            >
              Copy link
            </button>
          </div>
          {svg ? (
            <figure className="qr">
              <img src={svg} width={240} height={240} alt={`QR code for ${url}`} data-qr-code />
              <figcaption className="cta-row">
                <a className="btn btn--primary" href={svg} download={qrFileName(page, tags.refcode, 'svg')}>
                  Download SVG
                </a>
                {png ? (
                  <a
                    className="btn btn--secondary"
                    href={png}
                    download={qrFileName(page, tags.refcode, 'png')}
                  >
                    Download PNG
                  </a>
                ) : null}
              </figcaption>
            </figure>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
