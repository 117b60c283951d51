/**
 * Shop: a searchable, scrolling product list with "Add" buttons, a gift-wrap checkbox and a cart.
 * Checking out posts an "Order placed" notification; checking out an empty cart crashes the app
 * (a FATAL EXCEPTION in logcat), which is handy for log-reading tools.
 */
import { rect, type Rect, type UiNode } from '../ui';
import type { AppContext, VirtualApp } from './app';
import { SCREEN_WIDTH, TITLE_BOTTOM, button, checkBox, editText, scrollList, textView, titleBar } from './widgets';

export const SHOP_PACKAGE = 'com.example.shop';
const CATALOG = `${SHOP_PACKAGE}.ShopActivity`;
const CART = `${SHOP_PACKAGE}.CartActivity`;
const SEARCH_ID = `${SHOP_PACKAGE}:id/search_input`;

const PRODUCTS: readonly { name: string; price: string }[] = [
  { name: 'Coffee beans', price: '$12.90' },
  { name: 'Tea sampler', price: '$9.50' },
  { name: 'French press', price: '$24.00' },
  { name: 'Milk frother', price: '$18.75' },
  { name: 'Espresso cups', price: '$14.20' },
  { name: 'Grinder', price: '$39.00' },
  { name: 'Kettle', price: '$29.99' },
  { name: 'Scale', price: '$21.40' },
  { name: 'Filters', price: '$4.99' },
  { name: 'Travel mug', price: '$16.00' },
  { name: 'Cold brew bottle', price: '$19.90' },
  { name: 'Milk jug', price: '$11.50' },
  { name: 'Sugar bowl', price: '$8.40' },
  { name: 'Cocoa tin', price: '$7.25' },
  { name: 'Spoon set', price: '$6.80' },
  { name: 'Tea towel', price: '$5.50' },
];

export function createShopApp(): VirtualApp {
  let cart: string[] = [];
  let giftWrap = false;
  let orders = 0;
  return {
    info: {
      packageName: SHOP_PACKAGE,
      label: 'Shop',
      system: false,
      versionName: '2.0.1',
      versionCode: 2001,
      activities: [CATALOG, CART],
      launchable: true,
      // The cart shows the payment details: its window is FLAG_SECURE, so screenshots come out black.
      secureActivities: [CART],
    },
    render(ctx: AppContext): UiNode[] {
      if (ctx.activity === CART) {
        const rows = cart.map(
          (item) => (r: Rect) => textView(ctx, 'cart_item', item, rect(32, r.top + 8, SCREEN_WIDTH - 32, r.bottom - 8)),
        );
        return [
          titleBar(ctx, 'Cart'),
          textView(
            ctx,
            'cart_summary',
            `${cart.length} item${cart.length === 1 ? '' : 's'}${giftWrap ? ', gift wrapped' : ''}`,
            rect(32, TITLE_BOTTOM + 16, 688, TITLE_BOTTOM + 72),
          ),
          scrollList(ctx, 'cart_list', rect(0, TITLE_BOTTOM + 88, SCREEN_WIDTH, 1080), 96, rows),
          button(ctx, 'checkout_button', 'Checkout', rect(32, 1110, 688, 1206), 'checkout'),
        ];
      }
      const query = ctx.field(SEARCH_ID).toLowerCase();
      const shown = PRODUCTS.filter((p) => p.name.toLowerCase().includes(query));
      const rows = shown.map(
        (p) =>
          (r: Rect): UiNode => ({
            className: 'android.widget.LinearLayout',
            packageName: SHOP_PACKAGE,
            resourceId: `${SHOP_PACKAGE}:id/product_row`,
            bounds: r,
            children: [
              textView(ctx, 'product_name', p.name, rect(32, r.top + 20, 400, r.bottom - 20)),
              textView(ctx, 'product_price', p.price, rect(410, r.top + 20, 540, r.bottom - 20)),
              button(ctx, 'add_button', 'Add', rect(560, r.top + 16, 688, r.bottom - 16), `add:${p.name}`, {
                contentDesc: `Add ${p.name} to cart`,
              }),
            ],
          }),
      );
      return [
        titleBar(ctx, 'Shop'),
        editText(ctx, 'search_input', rect(32, TITLE_BOTTOM + 16, 688, TITLE_BOTTOM + 96), { hint: 'Search products' }),
        checkBox(
          ctx,
          'gift_wrap',
          'Gift wrap',
          giftWrap,
          rect(32, TITLE_BOTTOM + 112, 340, TITLE_BOTTOM + 192),
          'gift',
        ),
        button(
          ctx,
          'cart_button',
          `Cart (${cart.length})`,
          rect(380, TITLE_BOTTOM + 112, 688, TITLE_BOTTOM + 192),
          'cart',
        ),
        scrollList(ctx, 'product_list', rect(0, TITLE_BOTTOM + 208, SCREEN_WIDTH, ctx.screen.height), 120, rows),
      ];
    },
    onAction(action: string, ctx: AppContext): void {
      if (action.startsWith('add:')) {
        cart.push(action.slice(4));
        ctx.log('I', 'ShopApp', `added ${action.slice(4)} to cart (${cart.length} items)`);
      } else if (action === 'gift') {
        giftWrap = !giftWrap;
      } else if (action === 'cart') {
        ctx.startActivity(CART);
      } else if (action === 'checkout') {
        if (cart.length === 0) {
          ctx.crash(
            'java.lang.IllegalStateException: cannot check out an empty cart\n\tat ' +
              'com.example.shop.CartActivity.onCheckout(CartActivity.kt:42)',
          );
          return;
        }
        orders++;
        ctx.services.postNotification(
          SHOP_PACKAGE,
          'orders',
          'Order placed',
          `Order #${1042 + orders}: ${cart.length} item(s)`,
        );
        ctx.log('I', 'ShopApp', `order placed with ${cart.length} items`);
        cart = [];
        ctx.finish();
      }
    },
    clearData() {
      cart = [];
      giftWrap = false;
      orders = 0;
    },
  };
}
