import { useState } from 'react';
import { PLATFORM_LABELS, type SocialLink } from '../../lib/schemas/social.ts';
import { useSocialLinks } from '../api/get-social-links.ts';
import { Badge } from '../components/Badge.tsx';
import { ListState } from '../components/ListState.tsx';
import { RowButton } from '../components/RowButton.tsx';
import { SocialLinkModal } from '../modals/SocialLinkModal.tsx';
import { socialForm } from '../forms/social-form.ts';

export function SocialTab({ canEdit }: { canEdit: boolean }) {
  const { data, error, isLoading } = useSocialLinks();
  const [editing, setEditing] = useState<SocialLink | null>(null);
  const links = [...(data?.links ?? [])].sort((a, b) => a.displayOrder - b.displayOrder || a.id - b.id);

  return (
    <section aria-labelledby="social-heading">
      <div className="section-head">
        <div>
          <h2 id="social-heading">Social Media</h2>
          <p className="muted">Links shown in the site footer. Inactive links are hidden.</p>
        </div>
      </div>
      <ListState isLoading={isLoading} error={error} empty={links.length === 0}>
        <ul className="cards" aria-label="Social media links">
          {links.map((l) => (
            <li key={l.id} className="card">
              <div className="record__title-row">
                <h3 className="record__title">{PLATFORM_LABELS[l.platform] ?? l.platform}</h3>
                <Badge variant={l.isActive ? 'success' : 'secondary'}>
                  {l.isActive ? 'Active' : 'Inactive'}
                </Badge>
              </div>
              <dl className="meta meta--stack">
                <div>
                  <dt>URL</dt>
                  <dd className="break">
                    {l.url ? (
                      <a href={l.url} target="_blank" rel="noopener noreferrer">
                        {l.url}
                      </a>
                    ) : (
                      '—'
                    )}
                  </dd>
                </div>
                <div>
                  <dt>Handle</dt>
                  <dd>{l.handle || '—'}</dd>
                </div>
                <div>
                  <dt>Display order</dt>
                  <dd>{l.displayOrder}</dd>
                </div>
                <div>
                  <dt>Updated by</dt>
                  <dd>{l.updatedBy || '—'}</dd>
                </div>
              </dl>
              {canEdit ? (
                <RowButton action="Edit" name={PLATFORM_LABELS[l.platform]} onClick={() => setEditing(l)} />
              ) : null}
            </li>
          ))}
        </ul>
      </ListState>
      {editing ? (
        <SocialLinkModal
          key={editing.id}
          initial={socialForm(editing)}
          platform={editing.platform}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}
