// What plan.ts hands the wallet module (wallet.ts) when the co-signer asks
// to sign with a wallet: the plan, the wallet's box on the page, and the
// page's own rendering of a sign answer (the new weight, the signers).
export interface WalletPage {
  id: string;               // the plan id
  box: HTMLElement;         // #wallet (its messages go to #wallet-say, beside it: they stay once signing closes)
  apply(answer: unknown): void;
  isOpen(): boolean;        // signing still applies (not ready, submitted, blocked, expired)
  walletConnect: string;    // WALLETCONNECT_PROJECT_ID, "" when unset
}
