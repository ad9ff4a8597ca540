package cloudapi

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/linode/linodego"
	"github.com/valyala/fasthttp"
)

// linodegoClient serves e's app on a loopback port and returns linodego pointed at it.
func linodegoClient(t *testing.T, e *env, token string) *linodego.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go fasthttp.Serve(ln, e.app.Handler()) // no startup banner, unlike app.Listener
	t.Cleanup(func() { ln.Close() })
	c := linodego.NewClient(&http.Client{Timeout: 10 * time.Second})
	c.SetBaseURL("http://" + ln.Addr().String())
	c.SetToken(token)
	c.UseCache(false)
	c.SetRetryCount(0)
	return &c
}

// TestBillingWithLinodego drives every billing call linodego has against the API, so its
// request bodies and response parsing (usd numbers, unit_price strings, times, the
// make-default path) are proven to work.
func TestBillingWithLinodego(t *testing.T) {
	e := newEnv(t, 0)
	e.runJobs()
	ctx := context.Background()
	c := linodegoClient(t, e, demoToken)

	acct, err := c.GetAccount(ctx)
	if err != nil || acct.CreditCard == nil || acct.CreditCard.LastFour != "4242" || acct.ActiveSince == nil || acct.BillingSource != "akamai" || acct.Balance != 0 {
		t.Fatalf("GetAccount: %+v %v", acct, err)
	}
	if acct, err = c.UpdateAccount(ctx, linodego.AccountUpdateOptions{City: "Erie", Zip: "16501"}); err != nil || acct.City != "Erie" || acct.Zip != "16501" || acct.FirstName != "Dana" {
		t.Fatalf("UpdateAccount: %+v %v", acct, err)
	}
	var apiErr *linodego.Error
	if _, err = c.UpdateAccount(ctx, linodego.AccountUpdateOptions{Zip: "nope"}); !errors.As(err, &apiErr) || apiErr.Code != 400 {
		t.Fatalf("UpdateAccount with a bad zip: %v", err)
	}
	card := &linodego.PaymentMethodCreateOptionsData{CardNumber: "5555555555554444", CVV: "123", ExpiryMonth: 7, ExpiryYear: 2031}
	if err := c.AddPaymentMethod(ctx, linodego.PaymentMethodCreateOptions{Type: "credit_card", IsDefault: false, Data: card}); err != nil {
		t.Fatalf("AddPaymentMethod: %v", err)
	}
	pms, err := c.ListPaymentMethods(ctx, nil)
	if err != nil || len(pms) != 2 || pms[1].Data.(linodego.PaymentMethodDataCreditCard).CardType != "MasterCard" || pms[1].Created == nil {
		t.Fatalf("ListPaymentMethods: %+v %v", pms, err)
	}
	if err := c.SetDefaultPaymentMethod(ctx, pms[1].ID); err != nil {
		t.Fatalf("SetDefaultPaymentMethod: %v", err)
	}
	if pm, err := c.GetPaymentMethod(ctx, pms[1].ID); err != nil || !pm.IsDefault {
		t.Fatalf("GetPaymentMethod: %+v %v", pm, err)
	}
	if err := c.DeletePaymentMethod(ctx, pms[0].ID); err != nil {
		t.Fatalf("DeletePaymentMethod: %v", err)
	}
	pay, err := c.CreatePayment(ctx, linodego.PaymentCreateOptions{USD: "25.00", CVV: "123"})
	if err != nil || pay.USD != "25.00" || pay.Date == nil {
		t.Fatalf("CreatePayment: %+v %v", pay, err)
	}
	if p, err := c.GetPayment(ctx, pay.ID); err != nil || p.USD != "25.00" {
		t.Fatalf("GetPayment: %+v %v", p, err)
	}
	if list, err := c.ListPayments(ctx, nil); err != nil || len(list) != 4 {
		t.Fatalf("ListPayments: %+v %v", list, err)
	}
	invs, err := c.ListInvoices(ctx, nil)
	if err != nil || len(invs) != 3 || invs[0].Total != 33.40 || invs[0].Date == nil || invs[0].TaxSummary[0].Name != "PA STATE TAX" {
		t.Fatalf("ListInvoices: %+v %v", invs, err)
	}
	if inv, err := c.GetInvoice(ctx, invs[2].ID); err != nil || inv.Label != "Invoice" {
		t.Fatalf("GetInvoice: %+v %v", inv, err)
	}
	items, err := c.ListInvoiceItems(ctx, invs[0].ID, nil)
	if err != nil || len(items) != 3 || items[0].UnitPrice != "0.036" || items[0].Quantity != 420 || items[0].From == nil || *items[0].Region != "us-east" {
		t.Fatalf("ListInvoiceItems: %+v %v", items, err)
	}

	dave := linodegoClient(t, e, daveToken)
	promo, err := dave.AddPromoCode(ctx, linodego.PromoCodeCreateOptions{PromoCode: "FORGE25"})
	if err != nil || promo.CreditMonthlyCap != "25.00" || promo.CreditRemaining != "25.00" || promo.ServiceType != "all" {
		t.Fatalf("AddPromoCode: %+v %v", promo, err)
	}
	if _, err := dave.AddPromoCode(ctx, linodego.PromoCodeCreateOptions{PromoCode: "POCKET10"}); !errors.As(err, &apiErr) || apiErr.Code != 400 {
		t.Fatalf("second AddPromoCode: %v", err)
	}
}
