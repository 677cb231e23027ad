import type { Role } from '../../lib/schemas/permissions.ts';
import type { PublicUser, UserCreate, UserUpdate } from '../../lib/schemas/user.ts';

export interface UserForm {
  id: number;
  username: string;
  email: string;
  password: string;
  role: Role;
  firstName: string;
  lastName: string;
  isActive: boolean;
}

export function newUserForm(): UserForm {
  return {
    id: 0,
    username: '',
    email: '',
    password: '',
    role: 'viewer',
    firstName: '',
    lastName: '',
    isActive: true,
  };
}

export function userForm(u: PublicUser): UserForm {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    password: '',
    role: u.role,
    firstName: u.firstName,
    lastName: u.lastName,
    isActive: u.isActive,
  };
}

export function createUserPayload(f: UserForm): UserCreate {
  return {
    username: f.username.trim(),
    email: f.email.trim(),
    password: f.password,
    role: f.role,
    firstName: f.firstName.trim(),
    lastName: f.lastName.trim(),
    isActive: f.isActive,
  };
}

/** Spec section 5: a blank password means unchanged and is left out of the payload. */
export function updateUserPayload(f: UserForm): UserUpdate {
  const payload: UserUpdate = {
    username: f.username.trim(),
    email: f.email.trim(),
    role: f.role,
    firstName: f.firstName.trim(),
    lastName: f.lastName.trim(),
    isActive: f.isActive,
  };
  if (f.password.trim() !== '') payload.password = f.password;
  return payload;
}
