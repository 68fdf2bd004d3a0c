package store

import "parking/internal/database"

// The queries by capability. Each capability is a value reached from the Store
// (reads on the read pool) or from a Tx (queries inside the transaction); it holds
// only the engine's handle, so taking one costs nothing, and it offers its own
// queries and the engine's statements, nothing of the other capabilities. Method
// names are the same on both sides where a query is offered on both. A query that
// needs another capability's converts to it (CustomersTx(tx)): the types of one
// side share their shape. The audit entry is the one write on Tx itself (Tx.Audit):
// every write operation of every capability records one.

// Catalog reads the catalog (main services, rates, vehicle-type coefficients, extras) and
// the facility settings.
type Catalog struct{ *database.Engine }

// Catalog is the store's catalog queries.
func (s *Store) Catalog() Catalog { return Catalog{s.Engine} }

// CatalogTx edits the catalog and the facility settings, inside the transaction.
type CatalogTx struct{ *database.Tx }

// Catalog is the transaction's catalog queries.
func (tx *Tx) Catalog() CatalogTx { return CatalogTx{tx.Tx} }

// Handover reads the photos of a vehicle and the hand-over records.
type Handover struct{ *database.Engine }

// Handover is the store's handover queries.
func (s *Store) Handover() Handover { return Handover{s.Engine} }

// HandoverTx records photos and the hand-over at check-in, inside the transaction.
type HandoverTx struct{ *database.Tx }

// Handover is the transaction's handover queries.
func (tx *Tx) Handover() HandoverTx { return HandoverTx{tx.Tx} }

// Records reads the staff's read side: history search and export, reservation detail, audit
// trail, daily and parking board.
type Records struct {
	*database.Engine
	history HistoryTuning
}

// Records is the store's records queries.
func (s *Store) Records() Records { return Records{s.Engine, s.history} }

// Accounts reads accounts, sessions, API tokens, social logins, staff, login throttling
// and password resets.
type Accounts struct{ *database.Engine }

// Accounts is the store's accounts queries.
func (s *Store) Accounts() Accounts { return Accounts{s.Engine} }

// AccountsTx writes accounts, sessions, tokens, social logins, staff and throttling,
// inside the transaction.
type AccountsTx struct{ *database.Tx }

// Accounts is the transaction's accounts queries.
func (tx *Tx) Accounts() AccountsTx { return AccountsTx{tx.Tx} }

// Privacy reads a customer's consents and what the export of their data adds.
type Privacy struct{ *database.Engine }

// Privacy is the store's privacy queries.
func (s *Store) Privacy() Privacy { return Privacy{s.Engine} }

// PrivacyTx records consents and erases a customer (docs/privacy.md), inside the
// transaction.
type PrivacyTx struct{ *database.Tx }

// Privacy is the transaction's privacy queries.
func (tx *Tx) Privacy() PrivacyTx { return PrivacyTx{tx.Tx} }

// Reservations reads reservations, their extras, spots and manage-link references.
type Reservations struct{ *database.Engine }

// Reservations is the store's reservations queries.
func (s *Store) Reservations() Reservations { return Reservations{s.Engine} }

// ReservationsTx creates reservations and moves them through their states, inside the
// transaction.
type ReservationsTx struct{ *database.Tx }

// Reservations is the transaction's reservations queries.
func (tx *Tx) Reservations() ReservationsTx { return ReservationsTx{tx.Tx} }

// Customers reads customers, their vehicles and their own area.
type Customers struct{ *database.Engine }

// Customers is the store's customers queries.
func (s *Store) Customers() Customers { return Customers{s.Engine} }

// CustomersTx finds, creates and edits customers and vehicles, and links reservations to
// accounts, inside the transaction.
type CustomersTx struct{ *database.Tx }

// Customers is the transaction's customers queries.
func (tx *Tx) Customers() CustomersTx { return CustomersTx{tx.Tx} }

// Occupancy reads the daily occupancy ledger and capacity overrides.
type Occupancy struct{ *database.Engine }

// Occupancy is the store's occupancy queries.
func (s *Store) Occupancy() Occupancy { return Occupancy{s.Engine} }

// OccupancyTx claims and rebuilds the daily occupancy ledger, inside the transaction.
type OccupancyTx struct{ *database.Tx }

// Occupancy is the transaction's occupancy queries.
func (tx *Tx) Occupancy() OccupancyTx { return OccupancyTx{tx.Tx} }

// Outbox reads the notification outbox.
type Outbox struct{ *database.Engine }

// Outbox is the store's outbox queries.
func (s *Store) Outbox() Outbox { return Outbox{s.Engine} }

// OutboxTx queues and requeues notifications, inside the transaction.
type OutboxTx struct{ *database.Tx }

// Outbox is the transaction's outbox queries.
func (tx *Tx) Outbox() OutboxTx { return OutboxTx{tx.Tx} }

// Receipts reads the receipts and invoices of reservations.
type Receipts struct{ *database.Engine }

// Receipts is the store's receipts queries.
func (s *Store) Receipts() Receipts { return Receipts{s.Engine} }

// ReceiptsTx issues receipts and keeps invoice recipients, inside the transaction.
type ReceiptsTx struct{ *database.Tx }

// Receipts is the transaction's receipts queries.
func (tx *Tx) Receipts() ReceiptsTx { return ReceiptsTx{tx.Tx} }

// Idempotency is the store's idempotency-key queries.
func (s *Store) Idempotency() Idempotency { return Idempotency{s.Engine} }

// IdempotencyTx stores the answers of idempotent requests, inside their transaction.
type IdempotencyTx struct{ *database.Tx }

// Idempotency is the transaction's idempotency queries.
func (tx *Tx) Idempotency() IdempotencyTx { return IdempotencyTx{tx.Tx} }

// Partners reads the sales partners, their keys, their bookings and statements
// (docs/partners.md).
type Partners struct{ *database.Engine }

// Partners is the store's partners queries.
func (s *Store) Partners() Partners { return Partners{s.Engine} }

// PartnersTx edits partners and keys and locks a partner for its allotment, inside
// the transaction.
type PartnersTx struct{ *database.Tx }

// Partners is the transaction's partners queries.
func (tx *Tx) Partners() PartnersTx { return PartnersTx{tx.Tx} }

// Gate reads the plate-recognition cameras and their events (docs/gate.md).
type Gate struct{ *database.Engine }

// Gate is the store's gate queries.
func (s *Store) Gate() Gate { return Gate{s.Engine} }

// GateTx registers and removes cameras, records their events and marks arrivals,
// inside the transaction.
type GateTx struct{ *database.Tx }

// Gate is the transaction's gate queries.
func (tx *Tx) Gate() GateTx { return GateTx{tx.Tx} }

// Reports reads the business figures (docs/reports.md).
type Reports struct{ *database.Engine }

// Reports is the store's report queries.
func (s *Store) Reports() Reports { return Reports{s.Engine} }
