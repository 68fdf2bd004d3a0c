package store

// The queries by capability. Each capability is a value reached from the Store
// (reads on the read pool) or from a Tx (queries inside the transaction); it adds no
// state, so taking one costs nothing. Method names are the same on both sides where
// a query is offered on both. The audit entry is the one write on Tx itself
// (Tx.Audit): every write operation of every capability records one.

// Catalog reads the catalog (main services, rates, vehicle-type coefficients, extras) and
// the facility settings.
type Catalog struct{ *Store }

// Catalog is the store's catalog queries.
func (s *Store) Catalog() Catalog { return Catalog{s} }

// CatalogTx edits the catalog and the facility settings, inside the transaction.
type CatalogTx struct{ *Tx }

// Catalog is the transaction's catalog queries.
func (tx *Tx) Catalog() CatalogTx { return CatalogTx{tx} }

// Handover reads the photos of a vehicle and the hand-over records.
type Handover struct{ *Store }

// Handover is the store's handover queries.
func (s *Store) Handover() Handover { return Handover{s} }

// HandoverTx records photos and the hand-over at check-in, inside the transaction.
type HandoverTx struct{ *Tx }

// Handover is the transaction's handover queries.
func (tx *Tx) Handover() HandoverTx { return HandoverTx{tx} }

// Records reads the staff's read side: history search and export, reservation detail, audit
// trail, daily and parking board.
type Records struct{ *Store }

// Records is the store's records queries.
func (s *Store) Records() Records { return Records{s} }

// Accounts reads accounts, sessions, API tokens, social logins, staff, login throttling,
// privacy consents and password resets.
type Accounts struct{ *Store }

// Accounts is the store's accounts queries.
func (s *Store) Accounts() Accounts { return Accounts{s} }

// AccountsTx writes accounts, sessions, tokens, social logins, staff, throttling, privacy
// and erasure, inside the transaction.
type AccountsTx struct{ *Tx }

// Accounts is the transaction's accounts queries.
func (tx *Tx) Accounts() AccountsTx { return AccountsTx{tx} }

// Reservations reads reservations, their extras, spots and manage-link references.
type Reservations struct{ *Store }

// Reservations is the store's reservations queries.
func (s *Store) Reservations() Reservations { return Reservations{s} }

// ReservationsTx creates reservations and moves them through their states, inside the
// transaction.
type ReservationsTx struct{ *Tx }

// Reservations is the transaction's reservations queries.
func (tx *Tx) Reservations() ReservationsTx { return ReservationsTx{tx} }

// Customers reads customers, their vehicles and their own area.
type Customers struct{ *Store }

// Customers is the store's customers queries.
func (s *Store) Customers() Customers { return Customers{s} }

// CustomersTx finds, creates and edits customers and vehicles, and links reservations to
// accounts, inside the transaction.
type CustomersTx struct{ *Tx }

// Customers is the transaction's customers queries.
func (tx *Tx) Customers() CustomersTx { return CustomersTx{tx} }

// Occupancy reads the daily occupancy ledger and capacity overrides.
type Occupancy struct{ *Store }

// Occupancy is the store's occupancy queries.
func (s *Store) Occupancy() Occupancy { return Occupancy{s} }

// OccupancyTx claims and rebuilds the daily occupancy ledger, inside the transaction.
type OccupancyTx struct{ *Tx }

// Occupancy is the transaction's occupancy queries.
func (tx *Tx) Occupancy() OccupancyTx { return OccupancyTx{tx} }

// Outbox reads the notification outbox.
type Outbox struct{ *Store }

// Outbox is the store's outbox queries.
func (s *Store) Outbox() Outbox { return Outbox{s} }

// OutboxTx queues and requeues notifications, inside the transaction.
type OutboxTx struct{ *Tx }

// Outbox is the transaction's outbox queries.
func (tx *Tx) Outbox() OutboxTx { return OutboxTx{tx} }

// Receipts reads the receipts and invoices of reservations.
type Receipts struct{ *Store }

// Receipts is the store's receipts queries.
func (s *Store) Receipts() Receipts { return Receipts{s} }

// ReceiptsTx issues receipts and keeps invoice recipients, inside the transaction.
type ReceiptsTx struct{ *Tx }

// Receipts is the transaction's receipts queries.
func (tx *Tx) Receipts() ReceiptsTx { return ReceiptsTx{tx} }

// IdempotencyTx claims and finishes idempotency keys of retried requests, inside the
// transaction.
type IdempotencyTx struct{ *Tx }

// Idempotency is the transaction's idempotency queries.
func (tx *Tx) Idempotency() IdempotencyTx { return IdempotencyTx{tx} }
