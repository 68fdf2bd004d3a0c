package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// MaxPasswordBytes is bcrypt's limit: it ignores (and x/crypto refuses) anything longer.
const MaxPasswordBytes = 72

// ProfileChange is new personal data from the profile form (spec, PUT
// /users/profile/update: nombre, email, telefono). A nil field keeps the stored value.
type ProfileChange struct {
	Nombre   *string
	Email    *string
	Telefono *string
	// Language is the account's language (es, en, de, fr; docs/languages.md#how-the-language-is-chosen).
	Language *string
}

// The profile's refusals of a blank field.
var (
	errNameRequired  = fault.Coded(fault.Invalid, "err.account.name_required")
	errEmailRequired = fault.Coded(fault.Invalid, "err.account.email_required")
	errPhoneRequired = fault.Coded(fault.Invalid, "err.account.phone_required")
)

// UpdateProfile validates and stores a user's name, email and phone, and returns
// the updated user. A new email (other than by case) applies at once, is
// unverified, and gets a verification link (docs/accounts.md#email-verification).
// The session user is read from the database on every request, so the session copy
// (docs/customer-area.md: "updates the session copy") follows at once.
// An email used by another account, or a phone used by any other customer, is a
// Conflict: the phone is the booking flows' identity, so taking over another
// customer's number would show that customer's bookings (docs/accounts.md).
func (s *Service) UpdateProfile(ctx context.Context, userID int64, ch ProfileChange) (User, error) {
	var out User
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		cur, err := tx.Customers().Customer(ctx, userID)
		if err != nil {
			return err
		}
		upd, err := applyProfileChange(s.input, cur, ch)
		if err != nil {
			return err
		}
		upd.EmailChanged = upd.Email != nil && (cur.Email == nil || !strings.EqualFold(*cur.Email, *upd.Email))
		if upd.EmailChanged {
			taken, err := tx.Customers().EmailTakenByOtherAccount(ctx, userID, *upd.Email)
			if err != nil {
				return err
			}
			if taken {
				return fault.Coded(fault.Conflict, "err.account.profile_email_taken", "Email", *upd.Email)
			}
		}
		if upd.Phone != nil && (cur.Phone == nil || *cur.Phone != *upd.Phone) {
			taken, err := tx.Customers().PhoneTakenByOther(ctx, userID, *upd.Phone)
			if err != nil {
				return err
			}
			if taken {
				return fault.Coded(fault.Conflict, "err.account.profile_phone_taken", "Phone", *upd.Phone)
			}
		}
		if err := tx.Customers().UpdateProfile(ctx, userID, upd); err != nil {
			if store.IsUniqueViolation(err) { // a concurrent change took the email or phone first
				return fault.Coded(fault.Conflict, "err.account.profile_taken")
			}
			return err
		}
		c, err := tx.Customers().Customer(ctx, userID)
		if err != nil {
			return err
		}
		out = UserOf(c)
		if upd.EmailChanged { // the new email is unverified: a link goes to it (verify.go)
			return s.sendVerification(ctx, tx, c)
		}
		return nil
	})
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return User{}, err
		}
		return User{}, fmt.Errorf("update profile of %d: %w", userID, err)
	}
	return out, nil
}

// applyProfileChange validates the change against the stored customer and puts each
// field in its stored form (docs/input-rules.md#phones, internal/input; phone in E.164). A value
// equal to the stored one is kept as is, so data stored before these rules existed
// (or by another flow) never blocks an unrelated change.
func applyProfileChange(rules input.Rules, cur reservation.Customer, ch ProfileChange) (store.ProfileUpdate, error) {
	upd := store.ProfileUpdate{FullName: cur.FullName, Email: cur.Email, Phone: cur.Phone, Language: cur.Language}
	var err error
	if ch.Language != nil {
		if upd.Language, err = input.Language("language", *ch.Language); err != nil {
			return upd, err
		}
	}
	if ch.Nombre != nil {
		if strings.TrimSpace(*ch.Nombre) == "" {
			return upd, errNameRequired
		}
		if upd.FullName, err = input.Name("nombre", *ch.Nombre); err != nil {
			return upd, err
		}
	}
	if ch.Email != nil {
		email := strings.TrimSpace(*ch.Email)
		switch {
		case email == "":
			// Accounts log in by email: clearing it would lock the account out.
			return upd, errEmailRequired
		case cur.Email != nil && *cur.Email == email:
		default:
			if email, err = input.Email("email", email); err != nil {
				return upd, err
			}
		}
		upd.Email = &email
	}
	if ch.Telefono != nil {
		phone := strings.TrimSpace(*ch.Telefono)
		switch {
		case phone == "" && cur.Type == reservation.Admin:
			// Staff accounts need no phone; customers do (it links their bookings).
			upd.Phone = nil
			return upd, nil
		case phone == "":
			return upd, errPhoneRequired
		case cur.Phone != nil && *cur.Phone == phone:
		default:
			if phone, err = rules.Phone("telefono", phone); err != nil {
				return upd, err
			}
		}
		upd.Phone = &phone
	}
	return upd, nil
}

// PasswordChange is the password form (docs/customer-area.md).
type PasswordChange struct {
	Current string
	New     string
	Confirm string
}

// The password change's refusals; ErrWrongCurrentPassword is its 401.
var (
	ErrPasswordFieldsRequired = fault.Coded(fault.Invalid, "err.account.password_fields_required")
	ErrPasswordMismatch       = fault.Coded(fault.Invalid, "err.account.password_mismatch")
	ErrWrongCurrentPassword   = fault.Coded(fault.Unauthorized, "err.account.wrong_current_password", "Field", i18n.FieldName("currentPassword"))
	ErrSocialLoginPassword    = fault.Coded(fault.Invalid, "err.account.social_no_password")
	ErrPasswordUnchanged      = fault.Coded(fault.Invalid, "err.account.password_unchanged")
)

// newPasswordRules refuses a new password shorter than MinPasswordLength
// characters or longer than MaxPasswordBytes bytes (the change's and the reset's).
func newPasswordRules(pw string) error {
	if utf8.RuneCountInString(pw) < MinPasswordLength {
		return fault.Coded(fault.Invalid, "err.account.new_password_short", "Min", MinPasswordLength)
	}
	if len(pw) > MaxPasswordBytes {
		return fault.Coded(fault.Invalid, "err.account.new_password_long", "Max", MaxPasswordBytes)
	}
	return nil
}

// ChangePassword checks and replaces a user's password, then ends every other
// session of the account and revokes its API tokens, in the same transaction, so
// whoever held the old password is out (keepToken is the caller's session, kept).
// Spec order: a confirmation mismatch is 400 and a wrong current password 401;
// docs/errors.md#operation-responses: a social-login account is 400.
func (s *Service) ChangePassword(ctx context.Context, userID int64, keepToken string, pc PasswordChange) error {
	if pc.Current == "" || pc.New == "" || pc.Confirm == "" {
		return ErrPasswordFieldsRequired
	}
	c, err := s.store.Customers().Customer(ctx, userID)
	if err != nil {
		return fmt.Errorf("change password of %d: %w", userID, err)
	}
	if !HasOwnPassword(c.PasswordHash) {
		return ErrSocialLoginPassword
	}
	if pc.New != pc.Confirm {
		return ErrPasswordMismatch
	}
	if err := newPasswordRules(pc.New); err != nil {
		return err
	}
	oldHash := *c.PasswordHash
	if !s.passwordMatches(&oldHash, pc.Current) {
		return ErrWrongCurrentPassword
	}
	if pc.New == pc.Current {
		return ErrPasswordUnchanged

	}
	newHash, err := HashPassword(pc.New, s.hashCost)
	if err != nil {
		return err
	}
	keep := ""
	if keepToken != "" {
		keep = HashToken(keepToken)
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		ok, err := tx.Customers().SetPasswordHash(ctx, userID, oldHash, newHash)
		if err != nil {
			return err
		}
		if !ok { // changed by a concurrent request since it was checked
			return ErrWrongCurrentPassword
		}
		if err := tx.Accounts().DeleteSessionsOf(ctx, userID, keep); err != nil {
			return err
		}
		return tx.Customers().RevokeLoginTokens(ctx, userID)
	})
	if errors.Is(err, ErrWrongCurrentPassword) {
		return err
	}
	if err != nil {
		return fmt.Errorf("change password of %d: %w", userID, err)
	}
	s.log.InfoContext(ctx, "password changed; other sessions ended", "id_customer", userID)
	return nil
}

// HasOwnPassword reports whether an account has a password of its own that the
// password form can change (not a social-login or password-less account).
func HasOwnPassword(hash *string) bool {
	return hash != nil && *hash != "" && !strings.HasPrefix(*hash, SocialLoginPrefix)
}
