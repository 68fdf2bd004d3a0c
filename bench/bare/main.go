// Command bare is the ceiling a quote handler can approach: a bare net/http server
// that decodes the same JSON body as POST /api/pricing/dynamic and answers a fixed
// small JSON, with nothing else (no middleware, no database). bench/compare.sh runs
// it alternated with the service's quote (docs/performance.md#how-to-measure).
//
//	go run ./bench/bare -addr 127.0.0.1:18099
package main

import (
	"encoding/json"
	"flag"
	"log"
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

func main() {
	addr := flag.String("addr", "127.0.0.1:18099", "address to listen on")
	flag.Parse()
	answer := []byte(`{"success":true,"total_price":12345}` + "\n")
	http.HandleFunc("POST /api/pricing/dynamic", func(w http.ResponseWriter, r *http.Request) {
		var q quote
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&q); err != nil {
			http.Error(w, `{"success":false}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	http.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	log.Fatal(http.ListenAndServe(*addr, nil))
}
