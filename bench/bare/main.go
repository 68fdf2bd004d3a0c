// Command bare is the ceiling a quote handler can approach: a bare net/http server
// that decodes the same JSON body as POST /api/pricing/dynamic and answers a fixed
// small JSON, with nothing else (no middleware, no database; package barequote).
// bench/compare.sh runs it alternated with the service's quote
// (docs/performance.md#how-to-measure).
//
//	go run ./bench/bare -addr 127.0.0.1:18099
package main

import (
	"flag"
	"log"
	"net/http"

	"parking/bench/bare/barequote"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18099", "address to listen on")
	flag.Parse()
	http.Handle("POST /api/pricing/dynamic", barequote.Handler())
	http.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	log.Fatal(http.ListenAndServe(*addr, nil))
}
