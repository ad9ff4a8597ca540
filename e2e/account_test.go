package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

// TestLinodegoAccount drives the account area with linodego against the built binary: the
// account and its settings, network transfer, events with a filter, invoices and items,
// notifications, logins, maintenance (beta), payment methods, payments and promo codes.
func TestLinodegoAccount(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken)
	p.waitReady(t)
	ctx := context.Background()
	demo := cloudClient(p, e2eToken)
	dave := cloudClient(p, "pfdemo-dave-00000000000000000000000000000000000000000000000000000")

	acct, err := demo.GetAccount(ctx)
	if err != nil || acct.Email != "billing@demo.pocketforge.test" || acct.Zip != "19102" || acct.CreditCard == nil || acct.CreditCard.LastFour != "4242" {
		t.Fatalf("GetAccount: %+v %v", acct, err)
	}
	if acct, err = demo.UpdateAccount(ctx, linodego.AccountUpdateOptions{City: "Pittsburgh", Zip: "15201"}); err != nil || acct.City != "Pittsburgh" {
		t.Fatalf("UpdateAccount: %+v %v", acct, err)
	}
	if _, err := demo.UpdateAccount(ctx, linodego.AccountUpdateOptions{Zip: "ABCDE"}); !isStatus(err, 400) || !strings.Contains(err.Error(), "zip") {
		t.Fatalf("a bad US zip: %v", err)
	}
	off := false
	if s, err := demo.UpdateAccountSettings(ctx, linodego.AccountSettingsUpdateOptions{NetworkHelper: &off}); err != nil || s.NetworkHelper {
		t.Fatalf("UpdateAccountSettings: %+v %v", s, err)
	}
	if tr, err := demo.GetAccountTransfer(ctx); err != nil || tr.Quota != 16000 {
		t.Fatalf("GetAccountTransfer: %+v %v", tr, err)
	}

	events, err := demo.ListEvents(ctx, linodego.NewListOptions(0, `{"action":"account_update"}`))
	if err != nil || len(events) != 1 || events[0].Action != "account_update" {
		t.Fatalf("ListEvents with a filter: %+v %v", events, err)
	}
	if err := demo.MarkEventRead(ctx, &events[0]); err != nil {
		t.Fatalf("MarkEventRead: %v", err)
	}
	if err := demo.MarkEventsSeen(ctx, &events[0]); err != nil {
		t.Fatalf("MarkEventsSeen: %v", err)
	}
	if ev, err := demo.GetEvent(ctx, events[0].ID); err != nil || !ev.Read || !ev.Seen {
		t.Fatalf("GetEvent: %+v %v", ev, err)
	}

	invoices, err := demo.ListInvoices(ctx, nil)
	if err != nil || len(invoices) < 3 {
		t.Fatalf("ListInvoices: %d %v (the demo account is 120 days old: months of invoices)", len(invoices), err)
	}
	if inv, err := demo.GetInvoice(ctx, invoices[0].ID); err != nil || inv.Total <= 0 {
		t.Fatalf("GetInvoice: %+v %v", inv, err)
	}
	if items, err := demo.ListInvoiceItems(ctx, invoices[0].ID, nil); err != nil || len(items) == 0 {
		t.Fatalf("ListInvoiceItems: %+v %v", items, err)
	}
	if n, err := demo.ListNotifications(ctx, nil); err != nil || len(n) == 0 {
		t.Fatalf("ListNotifications: %+v %v", n, err)
	}
	if _, err := demo.ListLogins(ctx, nil); err != nil {
		t.Fatalf("ListLogins: %v", err)
	}
	beta := cloudClient(p, e2eToken)
	beta.SetAPIVersion("v4beta")
	if m, err := beta.ListMaintenances(ctx, nil); err != nil || len(m) != 1 {
		t.Fatalf("ListMaintenances: %+v %v", m, err)
	}

	if err := dave.AddPaymentMethod(ctx, linodego.PaymentMethodCreateOptions{Type: "credit_card", IsDefault: true,
		Data: &linodego.PaymentMethodCreateOptionsData{CardNumber: "4111111111111111", CVV: "123", ExpiryMonth: 12, ExpiryYear: time.Now().Year() + 3}}); err != nil {
		t.Fatalf("AddPaymentMethod: %v", err)
	}
	methods, err := dave.ListPaymentMethods(ctx, nil)
	if err != nil || len(methods) != 2 {
		t.Fatalf("ListPaymentMethods: %+v %v", methods, err)
	}
	var older int
	for _, m := range methods {
		if !m.IsDefault {
			older = m.ID
		}
	}
	if err := dave.SetDefaultPaymentMethod(ctx, older); err != nil {
		t.Fatalf("SetDefaultPaymentMethod (linodego's path): %v", err)
	}
	if err := dave.AddPaymentMethod(ctx, linodego.PaymentMethodCreateOptions{Type: "credit_card", IsDefault: false,
		Data: &linodego.PaymentMethodCreateOptionsData{CardNumber: "4111111111111112", CVV: "123", ExpiryMonth: 12, ExpiryYear: time.Now().Year() + 3}}); !isStatus(err, 400) {
		t.Fatalf("a card failing Luhn: %v", err)
	}

	pay, err := demo.CreatePayment(ctx, linodego.PaymentCreateOptions{USD: "10.00", CVV: "123"})
	if err != nil || pay.USD.String() != "10" && pay.USD.String() != "10.00" && pay.USD.String() != "10.0" {
		t.Fatalf("CreatePayment: %+v %v", pay, err)
	}
	if got, err := demo.GetPayment(ctx, pay.ID); err != nil || got.ID != pay.ID {
		t.Fatalf("GetPayment: %+v %v", got, err)
	}
	if list, err := demo.ListPayments(ctx, nil); err != nil || len(list) == 0 {
		t.Fatalf("ListPayments: %+v %v", list, err)
	}
	if _, err := demo.CreatePayment(ctx, linodego.PaymentCreateOptions{USD: "-5"}); !isStatus(err, 400) {
		t.Fatalf("a negative payment: %v", err)
	}

	if _, err := demo.AddPromoCode(ctx, linodego.PromoCodeCreateOptions{PromoCode: "POCKET10"}); !isStatus(err, 400) {
		t.Fatalf("a promo on a 120-day-old account: %v", err)
	}
	if promo, err := dave.AddPromoCode(ctx, linodego.PromoCodeCreateOptions{PromoCode: "pocket10"}); err != nil || promo.CreditRemaining != "60.00" {
		t.Fatalf("AddPromoCode: %+v %v", promo, err)
	}
}

// TestLinodegoServiceTransfer moves an instance from the demo account to the partner account
// with linodego, the clock and the completion delay doing the rest.
func TestLinodegoServiceTransfer(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken, "--transfer-delay", "1s")
	p.waitReady(t)
	ctx := context.Background()
	demo := cloudClient(p, e2eToken)
	dave := cloudClient(p, "pfdemo-dave-00000000000000000000000000000000000000000000000000000")

	// linodego names the entities "linodes" (the seed: instances); the appliance accepts both.
	tr, err := demo.RequestAccountServiceTransfer(ctx, linodego.AccountServiceTransferRequestOptions{
		Entities: linodego.AccountServiceTransferEntity{Linodes: []int{4}}})
	if err != nil || tr.Status != "pending" || !tr.IsSender || len(tr.Token) != 36 {
		t.Fatalf("RequestAccountServiceTransfer: %+v %v", tr, err)
	}
	if _, err := demo.RequestAccountServiceTransfer(ctx, linodego.AccountServiceTransferRequestOptions{
		Entities: linodego.AccountServiceTransferEntity{Linodes: []int{4}}}); !isStatus(err, 400) {
		t.Fatalf("a second transfer of the same instance: %v", err)
	}
	if _, err := demo.RequestAccountServiceTransfer(ctx, linodego.AccountServiceTransferRequestOptions{
		Entities: linodego.AccountServiceTransferEntity{Linodes: []int{1}}}); !isStatus(err, 400) || !strings.Contains(err.Error(), "balancer") {
		t.Fatalf("web-1 is on a balancer: %v", err)
	}
	seen, err := dave.GetAccountServiceTransfer(ctx, tr.Token)
	if err != nil || seen.IsSender {
		t.Fatalf("the receiver views it: %+v %v", seen, err)
	}
	if err := demo.AcceptAccountServiceTransfer(ctx, tr.Token); !isStatus(err, 400) && !isStatus(err, 403) {
		t.Fatalf("the sender accepts: %v", err)
	}
	if err := dave.AcceptAccountServiceTransfer(ctx, tr.Token); err != nil {
		t.Fatalf("AcceptAccountServiceTransfer: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := dave.ListAccountServiceTransfer(ctx, nil)
		if err != nil || len(list) != 1 {
			t.Fatalf("ListAccountServiceTransfer: %+v %v", list, err)
		}
		if instanceOwnedByPartner(t, p) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the transfer did not complete within its delay")
		}
		time.Sleep(250 * time.Millisecond)
	}
	tr2, err := demo.RequestAccountServiceTransfer(ctx, linodego.AccountServiceTransferRequestOptions{
		Entities: linodego.AccountServiceTransferEntity{Linodes: []int{3}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.CancelAccountServiceTransfer(ctx, tr2.Token); err != nil {
		t.Fatalf("CancelAccountServiceTransfer: %v", err)
	}
	if _, err := dave.GetAccountServiceTransfer(ctx, tr2.Token); !isStatus(err, 404) {
		t.Fatalf("a cancelled transfer is the creator's alone: %v", err)
	}
}

// instanceOwnedByPartner asks the cloud API whether batch-1 (id 4) now counts in the partner's
// network quota (1000 GB more than partner-app-1's 2000).
func instanceOwnedByPartner(t *testing.T, p *proc) bool {
	tr, err := cloudClient(p, "pfdemo-dave-00000000000000000000000000000000000000000000000000000").GetAccountTransfer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tr.Quota == 3000
}
