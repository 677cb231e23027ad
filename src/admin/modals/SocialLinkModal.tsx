import { toast } from 'sonner';
import { PLATFORM_LABELS, SocialLinkUpdateSchema, type Platform } from '../../lib/schemas/social.ts';
import { useUpdateSocialLink } from '../api/update-social-link.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { CheckboxField, TextField } from '../components/Field.tsx';
import { socialPayload, type SocialForm } from '../forms/social-form.ts';
import { failureDescription, serverFieldErrors } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';

export function SocialLinkModal({
  initial,
  platform,
  onClose,
}: {
  initial: SocialForm;
  platform: Platform;
  onClose: () => void;
}) {
  const { values: f, set, errors, setErrors, validate } = useFormState(initial);
  const update = useUpdateSocialLink();
  const { busy, onSubmit } = useSubmit({
    check: () => validate(SocialLinkUpdateSchema, socialPayload(f), 'Failed to update social media link'),
    save: () => update(f.id, socialPayload(f)),
    success: 'Social media link updated successfully!',
    onError: (err) => {
      setErrors(serverFieldErrors(err));
      toast.error('Failed to update social media link', {
        description: failureDescription(err, 'Please try again.'),
      });
    },
    onClose,
    setErrors,
  });

  return (
    <FormDialog
      id="social-form"
      title={`Edit ${PLATFORM_LABELS[platform]} Link`}
      submitLabel="Update Link"
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
      className="stack"
    >
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
    </FormDialog>
  );
}
