/** The sum of prices in dollars ("25.50"), added up in cents so that no binary fraction creeps in. */
export function totalOf(prices: string[]): string {
  const cents = prices.reduce((sum, price) => sum + Math.round(Number(price) * 100), 0);
  return (cents / 100).toFixed(2);
}
