package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"parking/internal/social"
)

// oidcProviders reads the social-login providers (docs/social-login.md):
// PARKING_OIDC_PROVIDERS lists provider ids separated by commas; each id X needs
// PARKING_OIDC_X_ISSUER, PARKING_OIDC_X_CLIENT_ID and PARKING_OIDC_X_CLIENT_SECRET,
// and may set PARKING_OIDC_X_NAME (the button's name; default the id). Ids are
// lower case in URLs and upper case in variable names. No ids: no social login.
func oidcProviders(ids string, getenv func(string) string) ([]social.ProviderConfig, error) {
	var out []social.ProviderConfig
	var errs []error
	seen := map[string]bool{}
	for _, id := range strings.Split(ids, ",") {
		id = strings.ToLower(strings.TrimSpace(id))
		if id == "" {
			continue
		}
		if !social.ValidID(id) || seen[id] {
			errs = append(errs, fmt.Errorf("PARKING_OIDC_PROVIDERS: %q must be distinct ids of lower-case letters, digits and dashes", id))
			continue
		}
		seen[id] = true
		prefix := "PARKING_OIDC_" + strings.ToUpper(strings.ReplaceAll(id, "-", "_")) + "_"
		get := func(k string) string { return strings.TrimSpace(getenv(prefix + k)) }
		c := social.ProviderConfig{ID: id, Name: get("NAME"), Issuer: get("ISSUER"), // exactly as given: a trailing "/" is part of an issuer
			ClientID: get("CLIENT_ID"), ClientSecret: get("CLIENT_SECRET")}
		if c.Name == "" {
			c.Name = id
		}
		if u, err := url.Parse(c.Issuer); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%sISSUER: %q must be the provider's issuer URL (https://…)", prefix, c.Issuer))
		}
		if c.ClientID == "" || c.ClientSecret == "" {
			errs = append(errs, fmt.Errorf("%sCLIENT_ID and %sCLIENT_SECRET must be set", prefix, prefix))
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}
