package app

import (
	"io"
	"strings"
	"testing"

	"parking/internal/social"
)

// Social-login providers come from PARKING_OIDC_PROVIDERS and PARKING_OIDC_<ID>_*;
// none: none; a provider missing its issuer or client is a start-up error naming
// the variable.
func TestLoadConfigOIDCProviders(t *testing.T) {
	c, err := LoadConfig(nil, env(nil), io.Discard)
	if err != nil || len(c.OIDCProviders) != 0 {
		t.Fatalf("no providers configured: %v, %v", c.OIDCProviders, err)
	}
	c, err = LoadConfig(nil, env(map[string]string{
		"PARKING_OIDC_PROVIDERS":              " Google, azure-ad ",
		"PARKING_OIDC_GOOGLE_ISSUER":          "https://accounts.google.com/",
		"PARKING_OIDC_GOOGLE_CLIENT_ID":       "gid",
		"PARKING_OIDC_GOOGLE_CLIENT_SECRET":   "gsecret",
		"PARKING_OIDC_GOOGLE_NAME":            "Google",
		"PARKING_OIDC_AZURE_AD_ISSUER":        "https://login.microsoftonline.com/tenant/v2.0",
		"PARKING_OIDC_AZURE_AD_CLIENT_ID":     "mid",
		"PARKING_OIDC_AZURE_AD_CLIENT_SECRET": "msecret",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := []social.ProviderConfig{
		// The issuer is kept exactly as given, a trailing "/" included: the provider's
		// discovery document and ID tokens must match it character for character.
		{ID: "google", Name: "Google", Issuer: "https://accounts.google.com/", ClientID: "gid", ClientSecret: "gsecret"},
		{ID: "azure-ad", Name: "azure-ad", Issuer: "https://login.microsoftonline.com/tenant/v2.0", ClientID: "mid", ClientSecret: "msecret"},
	}
	if len(c.OIDCProviders) != 2 || c.OIDCProviders[0] != want[0] || c.OIDCProviders[1] != want[1] {
		t.Fatalf("providers = %+v, want %+v", c.OIDCProviders, want)
	}
	for _, bad := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PARKING_OIDC_PROVIDERS": "google"}, "PARKING_OIDC_GOOGLE_ISSUER"},
		{map[string]string{"PARKING_OIDC_PROVIDERS": "google", "PARKING_OIDC_GOOGLE_ISSUER": "https://x"}, "PARKING_OIDC_GOOGLE_CLIENT_ID"},
		{map[string]string{"PARKING_OIDC_PROVIDERS": "go/ogle"}, "PARKING_OIDC_PROVIDERS"},
	} {
		_, err := LoadConfig(nil, env(bad.env), io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: error %v, want one naming %s", bad.env, err, bad.want)
		}
	}
}
