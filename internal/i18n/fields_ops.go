package i18n

// The fields the operations' refusals name that the forms of fieldLabels do not:
// the hand-over's and check-out's, and the filters of the history, audit and
// availability (docs/languages.md#messages-as-codes).
func init() {
	for field, key := range map[string]string{
		"checked_out_at": "ops.field.checked_out_at", "expected_total": "ops.field.expected_total",
		"paymentMethod": "common.forma_de_pago", "status": "common.estado",
		"from": "common.desde", "to": "common.hasta",
		"dateFrom": "admin_history.entrada_desde", "dateTo": "admin_history.entrada_hasta",
		"bookedFrom": "admin_history.reservada_desde", "bookedTo": "admin_history.reservada_hasta",
		"reservation": "admin_audit.numero_de_reserva",
	} {
		fieldLabels[field] = key
	}
}
