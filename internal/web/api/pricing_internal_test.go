package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"parking/internal/money"
	"parking/internal/web/httpx"
)

// TestPricingAnswerBytes: the quote's own encoding writes the bytes the JSON encoder
// writes (WriteJSON), and gives way to it when a text would need escaping.
func TestPricingAnswerBytes(t *testing.T) {
	answers := []pricingResponse{
		{Success: true, TotalPrice: 12345},
		{Success: true, TotalPrice: -5},
		{Success: true, TotalPrice: 0, Breakdown: &pricingBreakdown{}},
		{Success: true, TotalPrice: 98765, Breakdown: &pricingBreakdown{Days: 5, DailyPrice: 1250, Coefficient: 12500, BasePrice: 7812, ExtrasPrice: 2000}},
		{Success: true, TotalPrice: 100, Breakdown: &pricingBreakdown{Days: 1, DailyPrice: 100, Coefficient: money.One, BasePrice: 100},
			Availability: &pricingAvailability{Status: "available", FullDays: []string{}}},
		{Success: true, TotalPrice: 100, Breakdown: &pricingBreakdown{Days: 2, Coefficient: -5},
			Availability: &pricingAvailability{Status: "full", FullDays: []string{"2026-12-01", "2026-12-03"}}},
	}
	for _, a := range answers {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a); err != nil {
			t.Fatal(err)
		}
		got, ok := a.appendJSON(nil)
		if !ok || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("appendJSON = %q, %v; the encoder writes %q", got, ok, want.Bytes())
		}
	}
	for _, s := range []string{`a"b`, `a\b`, "días", "a\nb", "<x>"} {
		a := pricingResponse{Success: true, Availability: &pricingAvailability{Status: s, FullDays: []string{}}}
		if s == "<x>" {
			if _, ok := a.appendJSON(nil); !ok {
				t.Errorf("%q: refused a plain text", s)
			}
			continue
		}
		if _, ok := a.appendJSON(nil); ok {
			t.Errorf("%q: encoded a text that needs escaping", s)
		}
	}
}

// TestQuoteDecodeQuick: a body the quote reads itself gives the request the JSON
// decoder gives; any other goes to the decoder (its forms and refusals).
func TestQuoteDecodeQuick(t *testing.T) {
	quick := []string{
		`{"entry_date":"2026-12-01T10:00","exit_date":"2026-12-05T13:00","vehicle_type":"SUV","id_main_service":2,"additional_services":[1,3]}`,
		` { "entry_date" : "2026-12-01" ,` + "\n\t" + `"exit_date":"2026-12-05", "vehicle_type":"", "id_main_service":-7, "additional_services":[ ] , "id_reservation":null, "reference":"PK-1"} `,
		`{}`,
		`{"additional_services":null,"id_main_service":null}`,
		`{"id_reservation":0,"additional_services":[0, 12 ,3,3]}`,
		`{"id_main_service":123456789012345678}`,
	}
	slow := []string{
		``, ` `, `null`, `[]`, `{`, `{"entry_date":1}`, `{"entry_date":"a\"b"}`, `{"entry_date":"día"}`,
		`{"Entry_Date":"2026-12-01"}`, `{"total_price":12}`, `{"id_main_service":"2"}`, `{"id_main_service":2.0}`,
		`{"id_main_service":1e2}`, `{"id_main_service":01}`, `{"id_main_service":-}`, `{"id_main_service":1234567890123456789}`,
		`{"additional_services":2}`, `{"additional_services":["1"]}`, `{"additional_services":[1,]}`, `{"additional_services":[null]}`,
		`{"entry_date":"a","entry_date":"b"}`, `{"entry_date":"a"} x`, `{"entry_date":"a"}{}`, `{"entry_date":"a",}`,
		`{"id_main_service":nul}`, `{"id_main_service":2x}`, "{\"entry_date\":\"a\tb\"}",
	}
	for _, body := range quick {
		var got, want pricingRequest
		if !got.decodeQuick([]byte(body)) {
			t.Errorf("%s: not read quickly", body)
			continue
		}
		if err := httpx.UnmarshalBody([]byte(body), &want); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read %+v, the decoder %+v", body, got, want)
		}
	}
	for _, body := range slow {
		req := pricingRequest{Reference: "kept"}
		if req.decodeQuick([]byte(body)) {
			t.Errorf("%s: read quickly", body)
		}
		if !reflect.DeepEqual(req, pricingRequest{Reference: "kept"}) {
			t.Errorf("%s: the request changed to %+v", body, req)
		}
	}
}
