import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PLATFORM_LABELS, SocialLinkUpdateSchema, type Platform } from '../../lib/schemas/social.ts';
import { useUpdateSocialLink } from '../api/update-social-link.ts';
import { Dialog } from '../components/Dialog.tsx';
import { CheckboxField, TextField } from '../components/Field.tsx';
import { socialPayload, type SocialForm } from '../forms/social-form.ts';
import { failureDescription, serverFieldErrors, zodFieldErrors } from '../forms/errors.ts';

export function SocialLinkModal({
  initial,
  platform,
  onClose,
}: {
  initial: SocialForm;
  platform: Platform;
  onClose: () => void;
}) {
  const [f, setF] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateSocialLink();
  const set = <K extends keyof SocialForm>(k: K, v: SocialForm[K]) => setF((prev) => ({ ...prev, [k]: v }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // aria-disabled, not disabled, while saving: the button keeps focus.
    if (busy) return;
    const payload = socialPayload(f);
    const parsed = SocialLinkUpdateSchema.safeParse(payload);
    if (!parsed.success) {
      const fieldErrors = zodFieldErrors(parsed.error);
      setErrors(fieldErrors);
      toast.error('Failed to update social media link', { description: Object.values(fieldErrors)[0] });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await update(f.id, payload);
      toast.success('Social media link updated successfully!');
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
      toast.error('Failed to update social media link', {
        description: failureDescription(err, 'Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit ${PLATFORM_LABELS[platform]} Link`}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="social-form" className="btn btn--primary" aria-disabled={busy}>
            {busy ? 'Saving...' : 'Update Link'}
          </button>
        </>
      }
    >
      <form id="social-form" onSubmit={(e) => void onSubmit(e)} noValidate className="stack">
        <TextField
          id="social-url"
          label="URL"
          type="url"
          value={f.url}
          error={errors.url}
          onChange={(e) => set('url', e.target.value)}
          data-autofocus
        />
        <TextField
          id="social-handle"
          label="Handle"
          value={f.handle}
          error={errors.handle}
          onChange={(e) => set('handle', e.target.value)}
        />
        <TextField
          id="social-order"
          label="Display order"
          type="number"
          min={1}
          inputMode="numeric"
          value={f.displayOrder}
          error={errors.displayOrder}
          hint="1 is shown first."
          onChange={(e) => set('displayOrder', e.target.value)}
        />
        <CheckboxField
          id="social-active"
          label="Active (shown on the website)"
          checked={f.isActive}
          onChange={(e) => set('isActive', e.target.checked)}
        />
      </form>
    </Dialog>
  );
}
