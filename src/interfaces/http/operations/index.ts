import type { AnyOperation } from '../shared/operation.js';
import { cancelSignUp } from './cancel-sign-up.js';
import { changePassword } from './change-password.js';
import { changeProfile } from './change-profile.js';
import { confirmPasswordReset } from './confirm-password-reset.js';
import { exportAccount } from './export-account.js';
import { getAccountActivity } from './get-account-activity.js';
import { listCredentials } from './list-credentials.js';
import { getCurrentUser } from './get-current-user.js';
import { getJwks } from './get-jwks.js';
import { listSessions } from './list-sessions.js';
import { refreshSession } from './refresh-session.js';
import { requestPasswordReset } from './request-password-reset.js';
import { resendVerification } from './resend-verification.js';
import { revokeSession } from './revoke-session.js';
import { signIn } from './sign-in.js';
import { signOut } from './sign-out.js';
import { signUp } from './sign-up.js';
import { verifyEmail } from './verify-email.js';
import { deleteAccount } from './delete-account.js';
import { introspectToken } from './introspect-token.js';
import { adminListUsers } from './admin-list-users.js';
import { adminGetUser } from './admin-get-user.js';
import { adminGetUserActivity } from './admin-get-user-activity.js';
import { adminDisableUser } from './admin-disable-user.js';
import { adminEnableUser } from './admin-enable-user.js';
import { adminSignOutUser } from './admin-sign-out-user.js';
import { adminDeleteUser } from './admin-delete-user.js';

/** THE list of the HTTP operations the service offers (in the OpenAPI document's order): server.ts registers each, the edge and the tests read it. */
export const OPERATIONS: readonly AnyOperation[] = [
  signUp,
  signIn,
  getCurrentUser,
  changeProfile,
  getAccountActivity,
  listCredentials,
  exportAccount,
  deleteAccount,
  refreshSession,
  signOut,
  listSessions,
  revokeSession,
  changePassword,
  requestPasswordReset,
  confirmPasswordReset,
  verifyEmail,
  resendVerification,
  cancelSignUp,
  getJwks,
  introspectToken,
  adminListUsers,
  adminGetUser,
  adminGetUserActivity,
  adminDisableUser,
  adminEnableUser,
  adminSignOutUser,
  adminDeleteUser,
];
