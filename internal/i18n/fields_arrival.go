package i18n

// The arrival instructions of the settings page, one field per language
// (docs/settings.md#arrival-instructions).
func init() {
	for field, key := range map[string]string{
		"arrival_es": "arrival.instrucciones_es", "arrival_en": "arrival.instrucciones_en",
		"arrival_de": "arrival.instrucciones_de", "arrival_fr": "arrival.instrucciones_fr",
	} {
		fieldLabels[field] = key
	}
}
