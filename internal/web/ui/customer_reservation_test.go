package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"parking/internal/clock/clocktest"

	"parking/internal/apptest"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

var custMadrid, _ = time.LoadLocation("Europe/Madrid")

func TestCustomerCancel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		bob, _ := apptest.Customer(t, a, "bob@example.com", "600000002")
		mine := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{1})
		bobs := webtest.CustBook(t, a, "600000002", "2222BBB", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
		webtest.CustExec(t, a, `UPDATE reservation SET cod_parking_spot = 'B-7' WHERE id_reservation = $1`, mine)
		cancelURL := func(id any) string { return fmt.Sprintf("%s/users/profile/reservation/%v/cancel", a.URL, id) }

		t.Run("not the owner: 403, nothing changes", func(t *testing.T) {
			before := webtest.CustSnapshot(t, a, bobs)
			status, body := webtest.CustCall(t, ana, "DELETE", cancelURL(bobs), nil)
			if status != http.StatusForbidden {
				t.Fatalf("status = %d, want 403", status)
			}
			webtest.CustWantBody(t, body, webtest.CustNotYours)
			webtest.CustWantUnchanged(t, a, before)
		})
		t.Run("missing or malformed id: the same 403", func(t *testing.T) {
			for _, id := range []any{999999, "abc", 0, -1} {
				status, body := webtest.CustCall(t, ana, "DELETE", cancelURL(id), nil)
				if status != http.StatusForbidden {
					t.Fatalf("id %v: status = %d, want 403", id, status)
				}
				webtest.CustWantBody(t, body, webtest.CustNotYours)
			}
		})
		t.Run("no session", func(t *testing.T) {
			status, body := webtest.CustCall(t, apptest.Client(t), "DELETE", cancelURL(mine), nil)
			if status != http.StatusUnauthorized || body["success"] != false {
				t.Fatalf("status = %d body %v, want 401 success false", status, body)
			}
		})
		t.Run("owner cancels a PENDIENTE one", func(t *testing.T) {
			status, body := webtest.CustCall(t, ana, "DELETE", cancelURL(mine), nil)
			if status != http.StatusOK {
				t.Fatalf("status = %d (%v), want 200", status, body)
			}
			webtest.CustWantBody(t, body, map[string]any{"success": true, "message": "Reserva cancelada correctamente.",
				"id_reservation": mine, "status": "CANCELADA"})
			got := webtest.CustSnapshot(t, a, mine)
			if got.R.Status != reservation.Cancelled || got.R.Spot != nil {
				t.Errorf("after cancel: status %s spot %v, want CANCELADA and no spot", got.R.Status, got.R.Spot)
			}
		})
		for _, st := range []reservation.Status{reservation.InCourse, reservation.Finalized, reservation.Cancelled} {
			t.Run("refused when "+string(st), func(t *testing.T) {
				id := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-12-10") + "T10:00"), (clocktest.D("2026-12-12") + "T10:00"), 1, nil)
				webtest.CustSetStatus(t, a, id, st)
				before := webtest.CustSnapshot(t, a, id)
				status, body := webtest.CustCall(t, ana, "DELETE", cancelURL(id), nil)
				if status != http.StatusBadRequest {
					t.Fatalf("status = %d, want 400", status)
				}
				webtest.CustWantBody(t, body, map[string]any{"success": false,
					"message": "Solo se pueden cancelar reservas pendientes; esta reserva está " + string(st) + "."})
				webtest.CustWantUnchanged(t, a, before)
			})
		}
		_ = bob
	})
}

// Two (here: eight) simultaneous cancels of one reservation: one wins, the others
// are told it is already CANCELADA.
func TestCustomerCancelConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		id := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
		const n = 8
		statuses := make(chan int, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				status, body := webtest.CustCall(t, ana, "DELETE", fmt.Sprintf("%s/users/profile/reservation/%d/cancel", a.URL, id), nil)
				if status == http.StatusBadRequest && body["message"] != "Solo se pueden cancelar reservas pendientes; esta reserva está CANCELADA." {
					t.Errorf("loser body = %v", body)
				}
				statuses <- status
			}()
		}
		close(start)
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[200] != 1 || count[400] != n-1 {
			t.Errorf("statuses = %v, want one 200 and %d 400", count, n-1)
		}
	})
}

func TestCustomerEdit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		bob, _ := apptest.Customer(t, a, "bob@example.com", "600000002")
		editURL := func(id any) string { return fmt.Sprintf("%s/users/profile/reservation/%v/edit", a.URL, id) }

		t.Run("PENDIENTE: dates, service and extras replaced, priced with its own vehicle type", func(t *testing.T) {
			// SUV (1.25): the price must use the reservation's vehicle type.
			id := webtest.CustBook(t, a, "600000001", "3333SUV", "SUV", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{1, 2})
			webtest.CustExec(t, a, `UPDATE reservation SET cod_parking_spot = 'C-3' WHERE id_reservation = $1`, id)
			before := webtest.CustSnapshot(t, a, id)
			status, body := webtest.CustCall(t, ana, "PUT", editURL(id), map[string]any{
				"id_main_service": 3, "entry_date": (clocktest.D("2026-12-10") + "T10:00"), "exit_date": (clocktest.D("2026-12-12") + "T13:00"),
				"additional_services": []int{4, 999}, "total_price": 1,
			})
			if status != http.StatusOK {
				t.Fatalf("status = %d (%v), want 200", status, body)
			}
			// 2 days 3 h → 3 days; MEET 1–3 days at 18 € × 3 × 1.25 = 67.50; Detallado pro 100; 999 skipped.
			webtest.CustWantBody(t, body, map[string]any{"success": true, "message": "Reserva modificada correctamente.", "total_price": 167.5})
			got := webtest.CustSnapshot(t, a, id)
			if !got.R.Entry.Equal(webtest.CustAt((clocktest.D("2026-12-10") + "T10:00"))) || got.R.Exit == nil || !got.R.Exit.Equal(webtest.CustAt((clocktest.D("2026-12-12") + "T13:00"))) {
				t.Errorf("dates = %v – %v, want the sent ones", got.R.Entry, got.R.Exit)
			}
			if got.R.MainServiceID != 3 || got.R.TotalPrice != 16750 {
				t.Errorf("service %d total %v, want 3 and 167.50", got.R.MainServiceID, got.R.TotalPrice)
			}
			if len(got.Extras) != 1 || got.Extras[0].ID != 4 || got.Extras[0].Price != 10000 {
				t.Errorf("extras = %+v, want only 4 at 100.00", got.Extras)
			}
			if got.R.VehicleID != before.R.VehicleID || got.R.Spot == nil || *got.R.Spot != "C-3" || got.R.CustomerID != before.R.CustomerID {
				t.Errorf("vehicle, spot or customer changed: %+v", got.R)
			}
			if got.R.Status != reservation.Pending {
				t.Errorf("status = %s, want PENDIENTE", got.R.Status)
			}
		})

		t.Run("EN CURSO: stored entry kept, exit and services change, price follows", func(t *testing.T) {
			id := webtest.CustBook(t, a, "600000001", "4444CCC", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{1})
			webtest.CustSetStatus(t, a, id, reservation.InCourse)
			status, body := webtest.CustCall(t, ana, "PUT", editURL(id), map[string]any{
				"id_main_service": "2", "entry_date": (clocktest.D("2026-12-03") + "T08:00"), "exit_date": (clocktest.D("2026-12-06") + "T10:00"),
				"additional_services": []string{"2"},
			})
			if status != http.StatusOK {
				t.Fatalf("status = %d (%v), want 200", status, body)
			}
			// Entry kept at 1 Dec 10:00 → 5 days; TRANSFER 4–10 days at 11 € = 55; Lavado interior 25.
			webtest.CustWantBody(t, body, map[string]any{"success": true, "message": "Reserva modificada correctamente.", "total_price": 80})
			got := webtest.CustSnapshot(t, a, id)
			if !got.R.Entry.Equal(webtest.CustAt((clocktest.D("2026-12-01") + "T10:00"))) {
				t.Errorf(("entry = %v, want the stored " + clocktest.D("2026-12-01") + " 10:00"), got.R.Entry.In(custMadrid))
			}
			if got.R.Exit == nil || !got.R.Exit.Equal(webtest.CustAt((clocktest.D("2026-12-06") + "T10:00"))) {
				t.Errorf(("exit = %v, want " + clocktest.D("2026-12-06") + " 10:00"), got.R.Exit)
			}
			if got.R.Status != reservation.InCourse || got.R.Spot == nil || *got.R.Spot != "A-1" || got.R.MainServiceID != 2 {
				t.Errorf("reservation = %+v, want EN CURSO on A-1 with service 2", got.R)
			}
			if len(got.Extras) != 1 || got.Extras[0].ID != 2 {
				t.Errorf("extras = %+v, want only 2", got.Extras)
			}

			// EN CURSO: an exit before the stored entry is refused even if the sent entry is earlier.
			status, body = webtest.CustCall(t, ana, "PUT", editURL(id), map[string]any{
				"entry_date": (clocktest.D("2026-11-20") + "T10:00"), "exit_date": (clocktest.D("2026-11-30") + "T10:00"),
			})
			if status != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400", status)
			}
			webtest.CustWantBody(t, body, map[string]any{"success": false,
				"message": ("La fecha de salida (" + clocktest.ES("30/11/2026") + ", 10:00:00) debe ser posterior a la fecha de entrada (" + clocktest.ES("01/12/2026") + ", 10:00:00).")})
		})

		t.Run("fields not sent keep their values", func(t *testing.T) {
			id := webtest.CustBook(t, a, "600000001", "5555DDD", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{1})
			status, body := webtest.CustCall(t, ana, "PUT", editURL(id), map[string]any{"exit_date": (clocktest.D("2026-12-05") + "T10:00")})
			if status != http.StatusOK {
				t.Fatalf("status = %d (%v), want 200", status, body)
			}
			// 4 days: ECO 8 € × 4 = 32 + Lavado básico 15 (kept).
			webtest.CustWantBody(t, body, map[string]any{"success": true, "message": "Reserva modificada correctamente.", "total_price": 47})
			got := webtest.CustSnapshot(t, a, id)
			if got.R.MainServiceID != 1 || !got.R.Entry.Equal(webtest.CustAt((clocktest.D("2026-12-01") + "T10:00"))) || len(got.Extras) != 1 {
				t.Errorf("reservation = %+v extras %+v, want service, entry and extras kept", got.R, got.Extras)
			}
			// An empty list removes the extras.
			status, body = webtest.CustCall(t, ana, "PUT", editURL(id), map[string]any{"additional_services": []int{}})
			if status != http.StatusOK || body["total_price"] != 32.0 {
				t.Fatalf("status = %d body %v, want 200 with 32", status, body)
			}
		})

		t.Run("refusals change nothing", func(t *testing.T) {
			id := webtest.CustBook(t, a, "600000001", "6666EEE", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{1})
			bobs := webtest.CustBook(t, a, "600000002", "7777FFF", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
			final := webtest.CustBookPast(t, a, "600000001", "6666EEE", "COCHE", (clocktest.D("2026-11-01") + "T10:00"), (clocktest.D("2026-11-04") + "T10:00"), 1, nil)
			webtest.CustSetStatus(t, a, final, reservation.Finalized)
			cancelled := webtest.CustBookPast(t, a, "600000001", "6666EEE", "COCHE", (clocktest.D("2026-11-05") + "T10:00"), (clocktest.D("2026-11-06") + "T10:00"), 1, nil)
			webtest.CustSetStatus(t, a, cancelled, reservation.Cancelled)
			// Retire TRANSFER (2) for customers.
			webtest.CustExec(t, a, `UPDATE main_service SET active = false WHERE id_main_service = 2`)
			cat, err := a.Store.Catalog().LoadCatalog(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			a.Catalog.Store(pricing.NewSnapshot(cat))
			t.Cleanup(func() {
				webtest.CustExec(t, a, `UPDATE main_service SET active = true WHERE id_main_service = 2`)
				cat, _ := a.Store.Catalog().LoadCatalog(context.Background())
				a.Catalog.Store(pricing.NewSnapshot(cat))
			})
			good := map[string]any{"id_main_service": 1, "entry_date": (clocktest.D("2026-12-02") + "T10:00"), "exit_date": (clocktest.D("2026-12-05") + "T10:00"), "additional_services": []int{}}
			with := func(k string, v any) map[string]any {
				m := map[string]any{}
				for kk, vv := range good {
					m[kk] = vv
				}
				m[k] = v
				return m
			}
			cases := []struct {
				name   string
				client *http.Client
				id     any
				body   any
				status int
				want   map[string]any
			}{
				{"another customer's reservation", ana, bobs, good, 403, webtest.CustNotYours},
				{"the owner's reservation asked by another customer", bob, id, good, 403, webtest.CustNotYours},
				{"missing reservation", ana, 999999, good, 403, webtest.CustNotYours},
				{"malformed id", ana, "x1", good, 403, webtest.CustNotYours},
				{"FINALIZADA", ana, final, good, 400, map[string]any{"success": false, "message": "No se puede modificar una reserva FINALIZADA."}},
				{"CANCELADA", ana, cancelled, good, 400, map[string]any{"success": false, "message": "No se puede modificar una reserva CANCELADA."}},
				{"exit before entry", ana, id, with("exit_date", (clocktest.D("2026-12-01") + "T09:00")), 400, map[string]any{"success": false,
					"message": ("La fecha de salida (" + clocktest.ES("01/12/2026") + ", 09:00:00) debe ser posterior a la fecha de entrada (" + clocktest.ES("02/12/2026") + ", 10:00:00).")}},
				{"exit equal to entry", ana, id, with("exit_date", (clocktest.D("2026-12-02") + "T10:00")), 400, map[string]any{"success": false,
					"message": ("La fecha de salida (" + clocktest.ES("02/12/2026") + ", 10:00:00) debe ser posterior a la fecha de entrada (" + clocktest.ES("02/12/2026") + ", 10:00:00).")}},
				{"bad date", ana, id, with("entry_date", "mañana"), 400, map[string]any{"success": false,
					"message": `El campo entry_date no es una fecha válida ("mañana"): use ISO 8601, por ejemplo 2026-11-21T10:00.`}},
				{"retired main service", ana, id, with("id_main_service", 2), 400, map[string]any{"success": false, "message": "El servicio TRANSFER no está disponible."}},
				{"unknown main service", ana, id, with("id_main_service", 77), 400, map[string]any{"success": false, "message": "El servicio principal 77 no existe."}},
				{"bad id_main_service type", ana, id, with("id_main_service", "uno"), 400, map[string]any{"success": false,
					"message": "El campo id_main_service tiene un tipo no válido: se esperaba un número."}},
				{"not JSON", ana, id, ("exit_date=" + clocktest.D("2026-12-05")), 400, map[string]any{"success": false,
					"message": "El cuerpo no es un JSON válido (error de sintaxis en la posición 1)."}},
				{"no session", apptest.Client(t), id, good, 401, map[string]any{"success": false, "message": "Debe iniciar sesión para continuar."}},
			}
			watched := []int64{id, bobs, final, cancelled}
			before := map[int64]webtest.CustSnapshotReservation{}
			for _, w := range watched {
				before[w] = webtest.CustSnapshot(t, a, w)
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					status, body := webtest.CustCall(t, c.client, "PUT", editURL(c.id), c.body)
					if status != c.status {
						t.Fatalf("status = %d (%v), want %d", status, body, c.status)
					}
					webtest.CustWantBody(t, body, c.want)
				})
			}
			for _, w := range watched {
				webtest.CustWantUnchanged(t, a, before[w])
			}
		})

		t.Run("keeping a retired main service is allowed", func(t *testing.T) {
			id := webtest.CustBook(t, a, "600000001", "8888GGG", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 2, nil)
			webtest.CustExec(t, a, `UPDATE main_service SET active = false WHERE id_main_service = 2`)
			cat, _ := a.Store.Catalog().LoadCatalog(context.Background())
			a.Catalog.Store(pricing.NewSnapshot(cat))
			defer func() {
				webtest.CustExec(t, a, `UPDATE main_service SET active = true WHERE id_main_service = 2`)
				cat, _ := a.Store.Catalog().LoadCatalog(context.Background())
				a.Catalog.Store(pricing.NewSnapshot(cat))
			}()
			status, body := webtest.CustCall(t, ana, "PUT", editURL(id), map[string]any{"id_main_service": 2, "exit_date": (clocktest.D("2026-12-03") + "T10:00")})
			// 2 days TRANSFER 15 € = 30.
			if status != http.StatusOK || body["total_price"] != 30.0 {
				t.Fatalf("status = %d body %v, want 200 with 30", status, body)
			}
		})
	})
}

// The administrators' spot-overlap rule is a PostgreSQL exclusion constraint; an
// edit moving a stay onto another stay of the same spot is a 409 with a clear
// message, never a 500. The constraint is created here as that migration does.
func TestCustomerEditSpotOverlap(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		if d != store.Postgres {
			t.Skip("exclusion constraints exist on PostgreSQL only")
		}
		a := apptest.Start(t, d)
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		webtest.CustExec(t, a, `ALTER TABLE reservation ADD CONSTRAINT test_spot_overlap EXCLUDE USING gist (
			cod_parking_spot WITH =, tstzrange(entry_date, COALESCE(exit_date, 'infinity'::timestamptz)) WITH &&)
			WHERE (cod_parking_spot IS NOT NULL AND status IN ('PENDIENTE', 'EN CURSO'))`)
		first := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
		second := webtest.CustBook(t, a, "600000001", "2222BBB", "COCHE", (clocktest.D("2026-12-10") + "T10:00"), (clocktest.D("2026-12-12") + "T10:00"), 1, nil)
		webtest.CustExec(t, a, `UPDATE reservation SET cod_parking_spot = 'D-4' WHERE id_reservation IN ($1, $2)`, first, second)
		before := webtest.CustSnapshot(t, a, second)
		status, body := webtest.CustCall(t, ana, "PUT", fmt.Sprintf("%s/users/profile/reservation/%d/edit", a.URL, second),
			map[string]any{"entry_date": (clocktest.D("2026-12-03") + "T10:00")})
		if status != http.StatusConflict {
			t.Fatalf("status = %d (%v), want 409", status, body)
		}
		webtest.CustWantBody(t, body, map[string]any{"success": false,
			"message": "Las nuevas fechas coinciden con otra reserva en la misma plaza de aparcamiento; elija otras fechas o contacte con el aparcamiento."})
		webtest.CustWantUnchanged(t, a, before)
	})
}
