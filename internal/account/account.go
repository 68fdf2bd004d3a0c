// Package account manages customer and staff accounts: password hashing, login
// checks, the first administrator, and server-side sessions stored in the database
// (so several instances share them). Only hashes of secrets are ever stored.
package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Session timeouts (docs/accounts.md#sessions).
const (
	SessionIdle     = 2 * time.Hour
	SessionAbsolute = 24 * time.Hour
)

// BcryptCost is above the minimum of 10 (docs/accounts.md#customer-types) without making logins slow.
const BcryptCost = 11

// MinPasswordLength is the minimum strength of a new password.
const MinPasswordLength = 8

// SocialLoginPrefix marks accounts created by third-party login: such a hash never
// matches a password (docs/reservations.md#customer).
const SocialLoginPrefix = "SOCIAL_LOGIN_"

// User is the session user (docs/accounts.md#customer-types): id, nombre, email, numero, role.
type User struct {
	ID     int64
	Nombre string
	Email  string
	Numero string
	Role   reservation.CustomerType
	// Language is the account's chosen language ("" when none): step 3 of the
	// page's language (docs/languages.md#how-the-language-is-chosen).
	Language string
}

// IsAdmin reports whether the user is staff.
func (u User) IsAdmin() bool { return u.Role == reservation.Admin }

// Actor is the user as the audit trail records them (internal/audit).
func (u User) Actor() audit.Actor {
	k := audit.KindCustomer
	if u.IsAdmin() {
		k = audit.KindStaff
	}
	return audit.Actor{Kind: k, ID: u.ID, Name: u.Nombre, Email: u.Email}
}

// Service is the account operations layer.
type Service struct {
	store    *store.Store
	log      *slog.Logger
	now      func() time.Time
	input    input.Rules // phones read in PARKING_PHONE_REGION (docs/input-rules.md#phones)
	hashCost int         // bcrypt cost of new password hashes (BcryptCost unless WithHashCost)
	// Password reset (reset.go): where links are sent and the base of their URL.
	resetOutbox *notify.Outbox
	baseURL     string
	// Email verification (verify.go); nil: no links are sent.
	verify *verifier
}

// Option adjusts a Service at construction.
type Option func(*Service)

// WithInputRules sets the rules phones are read with (the facility's region);
// without it, input.DefaultRegion.
func WithInputRules(r input.Rules) Option { return func(s *Service) { s.input = r } }

// WithHashCost sets the bcrypt cost of new password hashes (default BcryptCost). Test
// suites lower it (bcrypt.MinCost is 4): one cost-11 hash takes a quarter of a second
// on a small machine and seconds under the race detector.
func WithHashCost(cost int) Option { return func(s *Service) { s.hashCost = cost } }

// New builds the service.
func New(st *store.Store, log *slog.Logger, opts ...Option) *Service {
	s := &Service{store: st, log: log, now: st.Clock(), hashCost: BcryptCost} // the service's one clock (internal/clock)
	for _, o := range opts {
		o(s)
	}
	// The dummy hash is made now, in the background, so that the first login with
	// an unknown email does not take twice as long as the others.
	go dummyHash(s.hashCost)
	return s
}

// HashPassword hashes a password with bcrypt at the given cost.
func HashPassword(pw string, cost int) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// dummyHashes holds, per cost, a hash compared against when an account does not
// exist (or cannot log in with a password), so that a wrong email costs as much
// time as a wrong password and emails cannot be probed by timing.
var dummyHashes sync.Map // cost → []byte

func dummyHash(cost int) []byte {
	if h, ok := dummyHashes.Load(cost); ok {
		return h.([]byte)
	}
	h, _ := bcrypt.GenerateFromPassword([]byte("no account has this password"), cost)
	dummyHashes.Store(cost, h)
	return h
}

// passwordMatches reports whether pw matches hash; social-login and empty hashes never
// match, after a comparison of the same cost (no timing difference).
func (s *Service) passwordMatches(hash *string, pw string) bool {
	if hash == nil || *hash == "" || strings.HasPrefix(*hash, SocialLoginPrefix) {
		_ = bcrypt.CompareHashAndPassword(dummyHash(s.hashCost), []byte(pw))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(*hash), []byte(pw)) == nil
}

// ErrBadCredentials is the one answer for a wrong email or a wrong password.
var ErrBadCredentials = fault.Coded(fault.Unauthorized, "err.account.bad_credentials")

// loginEmail is an email typed to log in, as looked up: trimmed (lookups ignore
// case). Control characters and overlong values are a 400 naming the field
// (docs/input-rules.md); any other malformed address simply matches no account.
func loginEmail(e string) (string, error) {
	e = strings.TrimSpace(e)
	return e, input.Check("email", e, input.MaxEmail)
}

// Authenticate checks an email and password and returns the account's user.
func (s *Service) Authenticate(ctx context.Context, email, password string) (User, error) {
	email, err := loginEmail(email)
	if err != nil {
		return User{}, err
	}
	c, err := s.store.Accounts().AccountByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		s.passwordMatches(nil, password)
		return User{}, ErrBadCredentials
	}
	if err != nil {
		return User{}, fmt.Errorf("authenticate: %w", err)
	}
	if !s.passwordMatches(c.PasswordHash, password) {
		return User{}, ErrBadCredentials
	}
	// A disabled staff account is told so (only once its password is right, so the
	// message reveals nothing to someone guessing).
	if c.Type == reservation.Admin {
		if err := s.checkActive(ctx, c.ID); err != nil {
			return User{}, err
		}
	}
	return UserOf(c), nil
}

// UserOf makes the session user of a stored customer.
func UserOf(c reservation.Customer) User {
	u := User{ID: c.ID, Nombre: c.FullName, Role: c.Type, Language: c.Language}
	if c.Email != nil {
		u.Email = *c.Email
	}
	if c.Phone != nil {
		u.Numero = *c.Phone
	}
	return u
}

// CreateAdmin creates an ADMIN account (parking admin create, PARKING_ADMIN_*).
// An existing account with that email is refused with a Conflict.
func (s *Service) CreateAdmin(ctx context.Context, email, password, name string) (User, error) {
	email, err := input.Email("email", email)
	if err != nil {
		return User{}, err
	}
	if err := CheckNewPassword(password, nil); err != nil {
		return User{}, err
	}
	if name, err = input.Text("name", name, input.MaxName); err != nil {
		return User{}, err
	}
	if name == "" {
		name = "Administrador"
	}
	hash, err := HashPassword(password, s.hashCost)
	if err != nil {
		return User{}, err
	}
	var c reservation.Customer
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		id, err := tx.Accounts().InsertAccount(ctx, store.NewAccount{FullName: name, Email: email, Type: reservation.Admin, PasswordHash: hash})
		if err != nil {
			return err
		}
		if c, err = tx.Customers().Customer(ctx, id); err != nil {
			return err
		}
		// The trail (actor "sistema" from the command line or start-up).
		return tx.Audit(ctx, audit.Entry{Action: audit.ActionCreate, Entity: audit.EntityStaff, EntityID: audit.ID(id),
			Changes: audit.Compare(nil, staffFields(Staff{Name: name, Email: email}))})
	})
	if store.IsUniqueViolation(err) {
		return User{}, fault.Coded(fault.Conflict, "err.account.email_exists", "Email", email)

	}
	if err != nil {
		return User{}, fmt.Errorf("create admin: %w", err)
	}
	return UserOf(c), nil
}

// EnsureAdmin creates the administrator named by PARKING_ADMIN_EMAIL/PASSWORD when no
// account has that email yet; it reports whether it created one.
func (s *Service) EnsureAdmin(ctx context.Context, email, password string) (bool, error) {
	if email == "" || password == "" {
		return false, nil
	}
	email, err := input.Email("email", email)
	if err != nil {
		return false, err
	}
	if _, err := s.store.Accounts().AccountByEmail(ctx, email); err == nil {
		return false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	_, err = s.CreateAdmin(ctx, email, password, "Administrador")
	if fault.KindOf(err) == fault.Conflict { // another instance created it first
		return false, nil
	}
	return err == nil, err
}

// HasAdmin reports whether any ADMIN account exists.
func (s *Service) HasAdmin(ctx context.Context) (bool, error) {
	return s.store.Accounts().HasAdmin(ctx)
}

// NewToken returns a random secret (32 bytes, base64url) and the hex SHA-256 that is stored.
func NewToken() (token, hash string) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, HashToken(token)
}

// HashToken is the stored form of a session or API token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
