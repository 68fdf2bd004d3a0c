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

// MsgPrivacyAckRequired is the registration page's refusal without the acknowledgement.
const MsgPrivacyAckRequired = "Para crear la cuenta, confirme que ha leído la política de privacidad."

// FieldErrors maps a form field name to what is wrong with it, in Spanish, so that
// pages can show each message next to its field. It travels as the cause of a
// fault.Error; get it with errors.As.
type FieldErrors map[string]string

func (f FieldErrors) Error() string {
	parts := make([]string, 0, len(f))
	for k, v := range f {
		parts = append(parts, k+": "+v)
	}
	return strings.Join(parts, "; ")
}

// fieldFault wraps field errors in a fault of kind k whose message is the first
// field's message (JSON clients get one message and the map).
func fieldFault(k fault.Kind, fields FieldErrors, order ...string) error {
	msg := "Revise los datos del formulario."
	for _, name := range order {
		if m, ok := fields[name]; ok {
			msg = m
			break
		}
	}
	return &fault.Error{Kind: k, Message: msg, Err: fields}
}

// Messages of the registration refusals.
const (
	msgEmailTaken = "Ya existe una cuenta con este correo electrónico. Inicie sesión con ella."
	// docs/accounts.md#the-phone-rule: an unverified phone number must never reveal someone else's
	// bookings, so a phone already in use is refused with one message, whether it
	// belongs to an account or to bookings made with another email.
	msgPhoneTaken = "Este teléfono ya está asociado a otra cuenta o a reservas con otro correo. Si es suyo, póngase en contacto con el aparcamiento."
)

var registrationFields = []string{"full_name", "email", "phone", "password", "confirmPassword", "privacy_ack"}

// validate puts the registration in its stored forms in place (docs/input-rules.md,
// internal/input: trimmed name and email, phone in E.164) and reports every broken
// rule at once.
func (r *Registration) validate(rules input.Rules) FieldErrors {
	errs := FieldErrors{}
	check := func(field, value, missing string, read func() (string, error)) string {
		if strings.TrimSpace(value) == "" {
			errs[field] = missing
			return ""
		}
		v, err := read()
		if err != nil {
			errs[field] = fault.MessageOf(err, "El valor no es válido.")
		}
		return v
	}
	r.FullName = check("full_name", r.FullName, "Indique su nombre completo.", func() (string, error) { return input.Name("full_name", r.FullName) })
	r.Email = check("email", r.Email, "Indique su correo electrónico.", func() (string, error) { return input.Email("email", r.Email) })
	r.Phone = check("phone", r.Phone, "Indique su teléfono.", func() (string, error) { return rules.Phone("phone", r.Phone) })
	switch {
	case utf8.RuneCountInString(r.Password) < MinPasswordLength:
		errs["password"] = fmt.Sprintf("La contraseña debe tener al menos %d caracteres.", MinPasswordLength)
	case len(r.Password) > MaxPasswordBytes:
		errs["password"] = fmt.Sprintf("La contraseña admite como máximo %d bytes.", MaxPasswordBytes)
	}
	if _, bad := errs["password"]; !bad && r.ConfirmPassword != r.Password {
		errs["confirmPassword"] = "Las contraseñas no coinciden."
	}
	if r.RequirePrivacyAck && !r.PrivacyAck {
		errs["privacy_ack"] = MsgPrivacyAckRequired
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
		return User{}, fieldFault(fault.Conflict, FieldErrors{"email": msgEmailTaken}, "email")
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
		return 0, fieldFault(fault.Conflict, FieldErrors{"email": msgEmailTaken}, "email")
	}
	c, err := tx.Accounts().CustomerByPhone(ctx, r.Phone)
	if errors.Is(err, store.ErrNotFound) {
		// The conflicting row disappeared in between: rare enough to ask for a retry.
		return 0, fault.New(fault.Conflict, "No se pudo completar el registro. Inténtelo de nuevo.")
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
	return 0, fieldFault(fault.Conflict, FieldErrors{"phone": msgPhoneTaken}, "phone")
}
