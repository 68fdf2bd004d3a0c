package api

import (
	"slices"

	"parking/internal/web/httpx"
)

// decodeQuick reads the usual quote body into q without reflection: one JSON object
// whose members are the request's fields, each at most once and spelled as they are,
// with texts that need no unescaping (printable ASCII) and ids as plain integers or
// null. Anything else reports false, with q left as it was given, and the body goes to
// httpx.UnmarshalBody, which decodes every form the API takes and words the refusals:
// for the bodies read here both give the same request (TestQuoteDecodeQuick).
func (q *pricingRequest) decodeQuick(b []byte) bool {
	var out pricingRequest
	p := quickScan{b: b}
	p.space()
	if !p.eat('{') {
		return false
	}
	p.space()
	if p.eat('}') {
		return p.end() && q.set(out)
	}
	var seen uint8
	for {
		key, ok := p.text()
		if !ok {
			return false
		}
		p.space()
		if !p.eat(':') {
			return false
		}
		p.space()
		i := slices.Index(quoteFields[:], string(key))
		if i < 0 {
			return false
		}
		bit := uint8(1) << i
		switch {
		case i < 4:
			*[4]*string{&out.EntryDate, &out.ExitDate, &out.VehicleType, &out.Reference}[i], ok = p.str()
		case i < 6:
			*[2]*httpx.FlexInt{&out.IDMainService, &out.IDReservation}[i-4], ok = p.flexInt()
		default:
			out.AdditionalServices, ok = p.ids()
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		p.space()
		if p.eat('}') {
			return p.end() && q.set(out)
		}
		if !p.eat(',') {
			return false
		}
		p.space()
	}
}

// quoteFields are the members decodeQuick reads, in the order of its switch: four
// texts, two ids, the extras.
var quoteFields = [...]string{"entry_date", "exit_date", "vehicle_type", "reference", "id_main_service", "id_reservation", "additional_services"}

func (q *pricingRequest) set(v pricingRequest) bool {
	*q = v
	return true
}

// quickScan walks a JSON text for decodeQuick.
type quickScan struct {
	b []byte
	i int
	// s is b as a string, made at the first text kept: the texts are cut from it
	// (one copy of the body, not one per field).
	s string
}

func (p *quickScan) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *quickScan) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (p *quickScan) end() bool {
	p.space()
	return p.i == len(p.b)
}

// text is a JSON string's contents when they are printable ASCII without escapes.
func (p *quickScan) text() ([]byte, bool) {
	if !p.eat('"') {
		return nil, false
	}
	start := p.i
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return p.b[start : p.i-1], true
		case c < 0x20 || c > 0x7e || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

func (p *quickScan) str() (string, bool) {
	at := p.i
	t, ok := p.text()
	if !ok {
		return "", false
	}
	if p.s == "" {
		p.s = string(p.b)
	}
	start := at + 1 // after the opening quote
	return p.s[start : start+len(t)], true
}

// flexInt is null (not sent) or a JSON integer of at most 18 digits.
func (p *quickScan) flexInt() (httpx.FlexInt, bool) {
	if p.literalNull() {
		return httpx.FlexInt{}, true
	}
	v, ok := p.integer()
	return httpx.FlexInt{Value: v, Set: ok}, ok
}

// ids is null or an array of integers.
func (p *quickScan) ids() (httpx.FlexIDs, bool) {
	if p.literalNull() {
		return nil, true
	}
	if !p.eat('[') {
		return nil, false
	}
	out := make(httpx.FlexIDs, 0, 4)
	p.space()
	if p.eat(']') {
		return out, true
	}
	for {
		v, ok := p.integer()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		p.space()
		if p.eat(']') {
			return out, true
		}
		if !p.eat(',') {
			return nil, false
		}
		p.space()
	}
}

func (p *quickScan) literalNull() bool {
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

// integer is a JSON number without fraction or exponent, of at most 18 digits.
func (p *quickScan) integer() (int64, bool) {
	neg := p.eat('-')
	start := p.i
	var v int64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		v = v*10 + int64(p.b[p.i]-'0')
		p.i++
	}
	n := p.i - start
	if n == 0 || n > 18 || (n > 1 && p.b[start] == '0') {
		return 0, false
	}
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, true
}
