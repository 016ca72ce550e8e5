// The `zibal` package (a dev dependency) ships no types: what the compat tests use of it, as its source has it.
declare module 'zibal' {
  interface ZibalAnswer {
    success: boolean;
    result?: number;
    message?: string;
    trackId?: number;
    paymentUrl?: string;
    [field: string]: unknown;
  }
  export default class Zibal {
    constructor(config?: { merchant?: string; callbackUrl?: string });
    request(payload: {
      amount: number;
      callbackUrl?: string;
      merchant?: string;
      orderId?: string;
      mobile?: string;
      description?: string;
    }): Promise<ZibalAnswer>;
    verify(payload: { merchant?: string; trackId: number | string }): Promise<ZibalAnswer>;
  }
}

declare module 'zibal/lib/urls.js' {
  const urls: { requestURL: string; startURL: string; verifyURL: string; getStartUrl(trackId: number): string };
  export default urls;
}
