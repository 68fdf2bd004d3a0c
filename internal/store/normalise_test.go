package store_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"testing"

	"parking/internal/input"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/storetest"
)

// rules are the service's normalisers (phones read in Spain).
var rules = store.Normalisers{
	Phone: func(p string) (string, error) { return input.Rules{}.Phone("phone", p) },
	Plate: func(p string) (string, error) { return input.Plate("license_plate", p) },
}

// seedLegacy writes customers, vehicles, links and reservations as they were stored
// before phones and plates had one form (docs/input-rules.md).
func seedLegacy(t *testing.T, st *store.Store, rows []string) {
	t.Helper()
	ctx := context.Background()
	if _, err := st.Catalog().SeedCatalog(ctx, pricing.Default()); err != nil {
		t.Fatal(err)
	}
	err := st.InTx(ctx, func(tx *store.Tx) error {
		for _, q := range rows {
			if _, err := tx.Exec(ctx, q); err != nil {
				t.Errorf("%s: %v", q, err)
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

const (
	t0 = "'2025-01-01 10:00:00'"
	t1 = "'2025-02-01 10:00:00'"
	t2 = "'2025-03-01 10:00:00'"
)

var legacyRows = []string{
	// Two booking-flow customers with one phone typed two ways: merged into the oldest.
	`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (1, 'Ana Antigua', '622 333 444', 'NO-REGISTRADO', ` + t0 + `)`,
	`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (2, 'Ana Nueva', '622333444', 'NO-REGISTRADO', ` + t1 + `)`,
	// An account and a booking-flow customer with one phone: kept apart and listed.
	`INSERT INTO customer (id_customer, full_name, phone, email, type, password_hash, created_at) VALUES (3, 'Rita Registrada', '611 222 333', 'rita@example.com', 'REGISTRADO', 'x', ` + t0 + `)`,
	`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (4, 'Otro', '611222333', 'NO-REGISTRADO', ` + t1 + `)`,
	// Not a phone at all: left as it is and listed.
	`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (5, 'Sin Número', 'abc', 'NO-REGISTRADO', ` + t0 + `)`,
	// Alone: rewritten.
	`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (6, 'Solo', '+34 600 111 222', 'NO-REGISTRADO', ` + t0 + `)`,
	// One plate typed three ways, one type: merged into the oldest.
	`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (1, '9988 LMN', 'COCHE', ` + t0 + `)`,
	`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (2, '9988-LMN', 'COCHE', ` + t1 + `)`,
	`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (3, '9988lmn', 'coche', ` + t2 + `)`,
	// One plate with two types: kept apart and listed.
	`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (4, '1234 ABC', 'COCHE', ` + t0 + `)`,
	`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (5, '1234-ABC', 'MOTO', ` + t1 + `)`,
	`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES (1, 1, ` + t0 + `)`,
	`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES (2, 1, ` + t1 + `)`,
	`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES (2, 2, ` + t1 + `)`,
	`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES (2, 3, ` + t2 + `)`,
	`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES (4, 5, ` + t1 + `)`,
	`INSERT INTO reservation (id_reservation, reservation_date, entry_date, status, total_price_cents, id_customer, id_vehicle, id_main_service, updated_at)
		VALUES (1, ` + t0 + `, ` + t0 + `, 'PENDIENTE', 1000, 1, 1, 1, ` + t0 + `)`,
	`INSERT INTO reservation (id_reservation, reservation_date, entry_date, status, total_price_cents, id_customer, id_vehicle, id_main_service, updated_at)
		VALUES (2, ` + t1 + `, ` + t1 + `, 'PENDIENTE', 1000, 2, 2, 1, ` + t1 + `)`,
	`INSERT INTO reservation (id_reservation, reservation_date, entry_date, status, total_price_cents, id_customer, id_vehicle, id_main_service, updated_at)
		VALUES (3, ` + t2 + `, ` + t2 + `, 'CANCELADA', 1000, 2, 3, 1, ` + t2 + `)`,
	`INSERT INTO reservation (id_reservation, reservation_date, entry_date, status, total_price_cents, id_customer, id_vehicle, id_main_service, updated_at)
		VALUES (4, ` + t1 + `, ` + t1 + `, 'PENDIENTE', 1000, 4, 5, 1, ` + t1 + `)`,
}

// docs/public-booking.md#privacy-of-anonymous-bookings on stored data: rows that become one are merged only when that
// exposes nobody; every other collision is kept apart and listed, and the rewrite
// runs once.
func TestNormaliseStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		seedLegacy(t, st, legacyRows)
		log := slog.New(slog.NewTextHandler(io.Discard, nil))

		rep, err := st.NormaliseStored(ctx, rules, log)
		if err != nil {
			t.Fatal(err)
		}
		// Merged: customer 2, vehicles 2 and 3. Rewritten: customers 1, 3, 6 and vehicles 1, 4.
		if rep.AlreadyDone || rep.Merged != 3 || rep.Rewritten != 5 || rep.Conflicts != 3 {
			t.Errorf("report = %+v, want 3 merged, 5 rewritten, 3 conflicts", rep)
		}

		db := st.DB()
		phones := map[int64]string{}
		rows, err := db.Query(`SELECT id_customer, phone FROM customer`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			var p string
			rows.Scan(&id, &p)
			phones[id] = p
		}
		rows.Close()
		wantPhones := map[int64]string{1: "+34622333444", 3: "+34611222333", 4: "611222333", 5: "abc", 6: "+34600111222"}
		if len(phones) != len(wantPhones) {
			t.Errorf("customers = %v, want %v", phones, wantPhones)
		}
		for id, p := range wantPhones {
			if phones[id] != p {
				t.Errorf("customer %d phone = %q, want %q", id, phones[id], p)
			}
		}
		plates := map[int64]string{}
		rows, err = db.Query(`SELECT id_vehicle, license_plate FROM vehicle`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			var p string
			rows.Scan(&id, &p)
			plates[id] = p
		}
		rows.Close()
		if want := map[int64]string{1: "9988LMN", 4: "1234ABC", 5: "1234-ABC"}; len(plates) != 3 || plates[1] != want[1] || plates[4] != want[4] || plates[5] != want[5] {
			t.Errorf("vehicles = %v, want %v", plates, want)
		}

		// Reservations and links moved to the oldest rows, links once each.
		for id, want := range map[int64][2]int64{1: {1, 1}, 2: {1, 1}, 3: {1, 1}, 4: {4, 5}} {
			var c, v int64
			if err := db.QueryRow(`SELECT id_customer, id_vehicle FROM reservation WHERE id_reservation = $1`, id).Scan(&c, &v); err != nil {
				t.Fatal(err)
			}
			if c != want[0] || v != want[1] {
				t.Errorf("reservation %d: customer %d vehicle %d, want %v", id, c, v, want)
			}
		}
		var links []string
		rows, err = db.Query(`SELECT id_customer, id_vehicle FROM customer_vehicle`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var c, v int64
			rows.Scan(&c, &v)
			links = append(links, fmt.Sprintf("%d-%d", c, v))
		}
		rows.Close()
		sort.Strings(links)
		if len(links) != 2 || links[0] != "1-1" || links[1] != "4-5" {
			t.Errorf("links = %v, want customer 1–vehicle 1 and 4–5", links)
		}

		// The search indexes and tallies followed: the merged plate finds its three
		// reservations, the merged customer's name its three.
		for _, search := range []string{"9988LMN", "Ana Antigua"} {
			_, total, err := st.Records().History(ctx, store.HistoryFilter{Search: search, Limit: 15})
			if err != nil || total != 3 {
				t.Errorf("history %q: %d (%v), want 3", search, total, err)
			}
		}
		if _, total, _ := st.Records().History(ctx, store.HistoryFilter{Search: "Ana Nueva", Limit: 15}); total != 0 {
			t.Errorf("the merged-away customer is still found: %d", total)
		}

		// The collisions are listed for staff.
		list, err := st.NormalisationConflicts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]store.NormalisationConflict{}
		for _, c := range list {
			got[c.Reason] = c
		}
		if c := got[store.ConflictAccount]; len(list) != 3 || c.Kind != "customer" || c.OtherID != 4 || c.KeptID == nil || *c.KeptID != 3 ||
			c.StoredValue != "611222333" || c.NormalValue != "+34611222333" || c.KeptLabel != "Rita Registrada (REGISTRADO)" {
			t.Errorf("account collision = %+v (all %+v)", c, list)
		}
		if c := got[store.ConflictType]; c.Kind != "vehicle" || c.OtherID != 5 || c.KeptID == nil || *c.KeptID != 4 || c.StoredValue != "1234-ABC" || c.OtherLabel != "MOTO" {
			t.Errorf("type collision = %+v", c)
		}
		if c := got[store.ConflictUnreadable]; c.Kind != "customer" || c.OtherID != 5 || c.KeptID != nil || c.StoredValue != "abc" {
			t.Errorf("unreadable = %+v", c)
		}

		// Once only.
		if rep, err := st.NormaliseStored(ctx, rules, log); err != nil || !rep.AlreadyDone {
			t.Errorf("second run: %+v, %v; want already done", rep, err)
		}

		// A collision staff resolved (the customer given another phone) leaves the list.
		if err := st.InTx(ctx, func(tx *store.Tx) error {
			_, err := tx.Exec(ctx, `UPDATE customer SET phone = '+34611999999' WHERE id_customer = 4`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if list, _ := st.NormalisationConflicts(ctx); len(list) != 2 {
			t.Errorf("after resolving one: %d listed, want 2", len(list))
		}
	})
}
