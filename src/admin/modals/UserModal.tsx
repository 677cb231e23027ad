import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import { ROLES, type Role } from '../../lib/schemas/permissions.ts';
import { UserCreateSchema, UserUpdateSchema } from '../../lib/schemas/user.ts';
import { PASSWORD_MIN } from '../../lib/schemas/fields.ts';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { CheckboxField, SelectField, TextField } from '../components/Field.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { createUserPayload, updateUserPayload, type UserForm } from '../forms/user-form.ts';
import { serverFieldErrors } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: r[0]!.toUpperCase() + r.slice(1) }));

export function UserModal({ initial, onClose }: { initial: UserForm; onClose: () => void }) {
  const { values: f, set, errors, setErrors, validate } = useFormState(initial);
  const create = useCreateUser();
  const update = useUpdateUser();
  const isNew = f.id === 0;
  const failTitle = isNew ? 'Failed to create user' : 'Failed to update user';
  const fallback = isNew
    ? 'An error occurred while creating the user'
    : 'An error occurred while updating the user';
  const { busy, onSubmit } = useSubmit({
    check: () =>
      isNew
        ? validate(UserCreateSchema, createUserPayload(f), failTitle, fallback)
        : validate(UserUpdateSchema, updateUserPayload(f), failTitle, fallback),
    save: () => (isNew ? create(createUserPayload(f)) : update(f.id, updateUserPayload(f))),
    success: isNew ? 'User created successfully!' : 'User updated successfully!',
    onError: (err) => {
      setErrors(serverFieldErrors(err));
      toast.error(failTitle, { description: messageOf(err, fallback) });
    },
    onClose,
    setErrors,
  });

  return (
    <FormDialog
      id="user-form"
      title={isNew ? 'Add User' : 'Edit User'}
      submitLabel={isNew ? 'Create User' : 'Update User'}
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextField
        id="user-first"
        label="First name"
        autoComplete="off"
        value={f.firstName}
        error={errors.firstName}
        onChange={(e) => set('firstName', e.target.value)}
        data-autofocus
      />
      <TextField
        id="user-last"
        label="Last name"
        autoComplete="off"
        value={f.lastName}
        error={errors.lastName}
        onChange={(e) => set('lastName', e.target.value)}
      />
      <TextField
        id="user-username"
        label="Username"
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={f.username}
        error={errors.username}
        onChange={(e) => set('username', e.target.value)}
      />
      <TextField
        id="user-email"
        label="Email"
        type="email"
        required
        autoComplete="off"
        value={f.email}
        error={errors.email}
        onChange={(e) => set('email', e.target.value)}
      />
      <div className="field">
        <label htmlFor="user-password" className="field__label">
          Password
        </label>
        <PasswordInput
          id="user-password"
          autoComplete="new-password"
          required={isNew}
          minLength={PASSWORD_MIN}
          aria-describedby={errors.password ? 'user-password-hint user-password-error' : 'user-password-hint'}
          aria-invalid={errors.password ? true : undefined}
          value={f.password}
          onChange={(e) => set('password', e.target.value)}
        />
        <p id="user-password-hint" className="field__hint">
          {isNew
            ? `At least ${PASSWORD_MIN} characters, and not a common password: three or four unrelated words work well.`
            : 'Leave blank to keep the current password.'}
        </p>
        {errors.password ? (
          <p id="user-password-error" className="field__error">
            {errors.password}
          </p>
        ) : null}
      </div>
      <SelectField
        id="user-role"
        label="Role"
        options={ROLE_OPTIONS}
        value={f.role}
        onChange={(e) => set('role', e.target.value as Role)}
      />
      <CheckboxField
        id="user-active"
        label="Active (can sign in)"
        checked={f.isActive}
        onChange={(e) => set('isActive', e.target.checked)}
        className="span-2"
      />
    </FormDialog>
  );
}
