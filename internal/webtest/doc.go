// Package webtest holds the helpers the black-box tests of the JSON API
// (internal/web/api) and of the pages (internal/web/ui) share: HTTP calls on a
// service started by internal/apptest, an administrator's and a customer's test
// environment, and the checks every page must pass. It is imported by tests only.
// It lives outside internal/web on purpose: shaping test data reaches the database
// (internal/store), which the web layer itself never does.
package webtest
