// Package barequote is the ceiling a quote handler can approach: a bare handler that
// decodes the same JSON body as POST /api/pricing/dynamic and answers a fixed small
// JSON, with nothing else (no middleware, no database). Command bare serves it for
// bench/compare.sh, and the quote's in-process benchmark runs it under the same
// harness as the service (docs/performance.md#how-to-measure).
package barequote

import (
	"encoding/json"
	"net/http"
)

// quote is the quote's request body (bench/pricing.lua sends it).
type quote struct {
	EntryDate          string  `json:"entry_date"`
	ExitDate           string  `json:"exit_date"`
	VehicleType        string  `json:"vehicle_type"`
	IDMainService      int64   `json:"id_main_service"`
	AdditionalServices []int64 `json:"additional_services"`
}

var answer = []byte(`{"success":true,"total_price":12345}` + "\n")

// Handler answers POST /api/pricing/dynamic.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/pricing/dynamic", func(w http.ResponseWriter, r *http.Request) {
		var q quote
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&q); err != nil {
			http.Error(w, `{"success":false}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	return mux
}
