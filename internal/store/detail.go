package store

import (
	"context"
	"fmt"
)

// MainServiceName reads the name of a main service (inactive ones included).
func (s Records) MainServiceName(ctx context.Context, id int64) (string, error) {
	var name string
	if err := s.QueryRow(ctx, `SELECT name FROM main_service WHERE id_main_service = $1`, id).Scan(&name); err != nil {
		return "", fmt.Errorf("main service %d: %w", id, notFound(err))
	}
	return name, nil
}
