package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Registration is a self-registration request (docs/accounts.md#the-phone-rule, POST /users/register).
type Registration struct {
	FullName        string
	Email           string
	Phone           string
	Password        string
	ConfirmPassword string
	// PrivacyAck is "He leído la política de privacidad"; MarketingConsent the
	// optional marketing consent (nil: not sent). Both are stored with their time
	// (docs/manage-booking.md). RequirePrivacyAck makes the acknowledgement required: the
	// registration page's form sets it; JSON clients of the spec need not send it.
	PrivacyAck        bool
	MarketingConsent  *bool
	RequirePrivacyAck bool
}

// FieldErrors maps a form field name to what is wrong with it, a coded refusal
// (docs/languages.md#messages-as-codes), so that pages can show each message next
// to its field in their language (Words). It travels as the cause of a
// fault.Error; get it with errors.As.
type FieldErrors map[string]*fault.Error

func (f FieldErrors) Error() string {
	parts := make([]string, 0, len(f))
	for k, v := range f {
		parts = append(parts, k+": "+v.Message)
	}
	return strings.Join(parts, "; ")
}

// Words are the messages by field as say writes each (the reader's language).
func (f FieldErrors) Words(say func(error) string) map[string]string {
	out := make(map[string]string, len(f))
	for k, v := range f {
		out[k] = say(v)
	}
	return out
}

// fieldFault wraps field errors in a fault of kind k whose words are the first
// field's (JSON clients get one message and the map).
func fieldFault(k fault.Kind, fields FieldErrors, order ...string) error {
	out := fault.Coded(k, "err.account.check_form")
	for _, name := range order {
		if m, ok := fields[name]; ok {
			out = fault.Coded(k, m.Code, m.Args...)
			break
		}
	}
	out.Err = fields
	return out
}

// The registration's refusals by field.
var (
	errFullNameMissing   = fault.Coded(fault.Invalid, "err.account.full_name_missing")
	errEmailMissing      = fault.Coded(fault.Invalid, "err.account.email_missing")
	errPhoneMissing      = fault.Coded(fault.Invalid, "err.account.phone_missing")
	errPasswordShort     = fault.Coded(fault.Invalid, "err.account.password_short", "Min", MinPasswordLength)
	errPasswordLong      = fault.Coded(fault.Invalid, "err.account.password_long", "Max", MaxPasswordBytes)
	errPasswordsDiffer   = fault.Coded(fault.Invalid, "err.account.passwords_differ")
	errPrivacyAckMissing = fault.Coded(fault.Invalid, "err.account.privacy_ack_required")
	errInvalidValue      = fault.Coded(fault.Invalid, "err.account.invalid_value")
	errEmailTaken        = fault.Coded(fault.Conflict, "err.account.email_registered")
	// docs/accounts.md#the-phone-rule: an unverified phone number must never reveal someone else's
	// bookings, so a phone already in use is refused with one message, whether it
	// belongs to an account or to bookings made with another email.
	errPhoneTaken = fault.Coded(fault.Conflict, "err.account.phone_registered")
)

var registrationFields = []string{"full_name", "email", "phone", "password", "confirmPassword", "privacy_ack"}

// validate puts the registration in its stored forms in place (docs/input-rules.md,
// internal/input: trimmed name and email, phone in E.164) and reports every broken
// rule at once.
func (r *Registration) validate(rules input.Rules) FieldErrors {
	errs := FieldErrors{}
	check := func(field, value string, missing *fault.Error, read func() (string, error)) string {
		if strings.TrimSpace(value) == "" {
			errs[field] = missing
			return ""
		}
		v, err := read()
		if err != nil {
			errs[field] = errInvalidValue
			if f := (*fault.Error)(nil); errors.As(err, &f) && f.Code != "" {
				errs[field] = f
			}

		}
		return v
	}
	r.FullName = check("full_name", r.FullName, errFullNameMissing, func() (string, error) { return input.Name("full_name", r.FullName) })
	r.Email = check("email", r.Email, errEmailMissing, func() (string, error) { return input.Email("email", r.Email) })
	r.Phone = check("phone", r.Phone, errPhoneMissing, func() (string, error) { return rules.Phone("phone", r.Phone) })
	switch {
	case utf8.RuneCountInString(r.Password) < MinPasswordLength:
		errs["password"] = errPasswordShort
	case len(r.Password) > MaxPasswordBytes:
		errs["password"] = errPasswordLong
	}
	if _, bad := errs["password"]; !bad && r.ConfirmPassword != r.Password {
		errs["confirmPassword"] = errPasswordsDiffer
	}
	if r.RequirePrivacyAck && !r.PrivacyAck {
		errs["privacy_ack"] = errPrivacyAckMissing
	}
	return errs
}

// Register creates a REGISTRADO account (docs/accounts.md#the-phone-rule) in one transaction and returns
// its user; the caller starts the session. Email (among accounts, ignoring case) and
// phone are unique: the database's unique indexes decide, so concurrent
// registrations cannot both take one. A booking-flow customer (NO-REGISTRADO) with
// the same phone is upgraded in place, keeping its reservations, only when the email
// stored on it equals the registration email; otherwise the phone is refused (409).
// Invalid input is a fault.Invalid and conflicts a fault.Conflict, both carrying
// FieldErrors.
func (s *Service) Register(ctx context.Context, r Registration) (User, error) {
	if errs := r.validate(s.input); len(errs) > 0 {
		return User{}, fieldFault(fault.Invalid, errs, registrationFields...)
	}
	// Hash before the transaction: bcrypt takes tens of milliseconds, and SQLite's
	// single writer must not wait for it.
	hash, err := HashPassword(r.Password, s.hashCost)
	if err != nil {
		return User{}, err
	}
	var c reservation.Customer
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		phone := r.Phone
		id, ok, err := tx.Accounts().InsertAccountIfFree(ctx, store.NewAccount{
			FullName: r.FullName, Email: r.Email, Phone: &phone, Type: reservation.Registered, PasswordHash: hash,
		})
		if err != nil {
			return err
		}
		if !ok {
			if id, err = upgradeOrRefuse(ctx, tx, r, hash); err != nil {
				return err
			}
		}
		if r.PrivacyAck || r.MarketingConsent != nil {
			if err := tx.Privacy().SetCustomerConsents(ctx, id, r.PrivacyAck, r.MarketingConsent); err != nil {
				return err
			}
		}
		if c, err = tx.Customers().Customer(ctx, id); err != nil {
			return err
		}
		// The new account's email is unverified until its link is followed (verify.go).
		return s.sendVerification(ctx, tx, c)
	})
	if store.IsUniqueViolation(err) {
		// Only the upgrade's UPDATE can get here: another account took the email
		// between our check and the write.
		return User{}, fieldFault(fault.Conflict, FieldErrors{"email": errEmailTaken}, "email")
	}
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return User{}, err
		}
		return User{}, fmt.Errorf("register: %w", err)
	}
	return UserOf(c), nil
}

// upgradeOrRefuse handles a registration whose email or phone is taken: it finds
// out which, and upgrades a matching NO-REGISTRADO customer.
func upgradeOrRefuse(ctx context.Context, tx *store.Tx, r Registration, hash string) (int64, error) {
	taken, err := tx.Accounts().AccountEmailTaken(ctx, r.Email)
	if err != nil {
		return 0, err
	}
	if taken {
		return 0, fieldFault(fault.Conflict, FieldErrors{"email": errEmailTaken}, "email")
	}
	c, err := tx.Accounts().CustomerByPhone(ctx, r.Phone)
	if errors.Is(err, store.ErrNotFound) {
		// The conflicting row disappeared in between: rare enough to ask for a retry.
		return 0, fault.Coded(fault.Conflict, "err.account.register_retry")

	}
	if err != nil {
		return 0, err
	}
	if c.Type == reservation.Unregistered {
		upgraded, err := tx.Accounts().UpgradeToRegistered(ctx, c.ID, r.FullName, r.Email, hash)
		if err != nil {
			return 0, err
		}
		if upgraded {
			return c.ID, nil
		}
	}
	return 0, fieldFault(fault.Conflict, FieldErrors{"phone": errPhoneTaken}, "phone")
}
