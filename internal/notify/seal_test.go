package notify_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"parking/internal/notify"
)

// A sealed value is stored unreadable and opens, with the same secret only, into
// the plain string; the rest of the body is untouched, and text a person typed
// cannot pass for a sealed value.
func TestSealer(t *testing.T) {
	s := notify.NewSealer([]byte("service-secret-0123456789"))
	link := "https://parking.example/users/verify?t=abc.def&x=<1>"
	body, err := json.Marshal(map[string]any{"type": "email_verification", "cliente": map[string]string{"nombre": `{"sealed":"v1.AAAA"}`},
		"verify_url": s.Seal(link)})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(body, []byte("parking.example")) || !notify.HasSealed(body) {
		t.Fatalf("stored body shows the link: %s", body)
	}
	if again, _ := json.Marshal(s.Seal(link)); bytes.Contains(body, again) {
		t.Error("two seals of one link are equal (the nonce must be fresh)")
	}
	opened, err := s.Unseal(body)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Cliente   map[string]string `json:"cliente"`
		VerifyURL string            `json:"verify_url"`
	}
	if err := json.Unmarshal(opened, &got); err != nil {
		t.Fatalf("%s: %v", opened, err)
	}
	if got.VerifyURL != link || got.Cliente["nombre"] != `{"sealed":"v1.AAAA"}` {
		t.Errorf("opened %s", opened)
	}
	if !strings.Contains(string(opened), "&x=<1>") {
		t.Errorf("opened body escapes the link: %s", opened)
	}

	plain := []byte(`{"type":"booking_confirmation"}`)
	if out, err := s.Unseal(plain); err != nil || !bytes.Equal(out, plain) {
		t.Errorf("a body without sealed values: %s %v", out, err)
	}
	other := notify.NewSealer([]byte("another-secret-0123456789"))
	if _, err := other.Unseal(body); !errors.Is(err, notify.ErrUnseal) {
		t.Errorf("another key opened it: %v", err)
	}
	tampered := bytes.Clone(body)
	i := bytes.LastIndex(tampered, []byte(`"v1.`)) + 10
	if tampered[i] == 'A' { // one character of the ciphertext changed
		tampered[i] = 'B'
	} else {
		tampered[i] = 'A'
	}
	if _, err := s.Unseal(tampered); !errors.Is(err, notify.ErrUnseal) {
		t.Errorf("a tampered value opened: %v", err)
	}
}
