import { HttpReply, defineRpc } from '@mapi/contracts';
import { z } from 'zod';
import { bindHandlers, rpcHandler } from './rpc-handlers';

const GreetRpc = defineRpc({
  subject: 'handlertest.v1.greet',
  service: 'handlertest',
  request: z.object({ body: z.object({ name: z.string() }) }),
  response: z.object({ greeting: z.string() }),
});
const OtherRpc = defineRpc({
  subject: 'handlertest.v1.other',
  service: 'handlertest',
  request: z.object({ n: z.number() }),
  response: z.null(),
});

const serve = rpcHandler<{ prefix: string }>();

class Greet {
  constructor(private readonly prefix: string) {}
  async execute({ body }: { body: { name: string } }) {
    return { greeting: `${this.prefix} ${body.name}` };
  }
}

describe('rpcHandler: a table line pairs a contract with its use case', () => {
  it('builds each use case once from the service parts and calls it with the request', async () => {
    const built: string[] = [];
    const table = [
      serve(GreetRpc, (d) => (built.push('greet'), new Greet(d.prefix))),
      serve(OtherRpc, () => ({ execute: () => new HttpReply(202, null) })),
    ];
    const [greet, other] = bindHandlers(table, { prefix: 'hello' });
    expect(built).toEqual(['greet']);
    expect(greet.contract).toBe(GreetRpc);
    await expect(greet.execute({ body: { name: 'ana' } })).resolves.toEqual({ greeting: 'hello ana' });
    await greet.execute({ body: { name: 'bo' } });
    expect(built).toEqual(['greet']);
    expect(other.execute({ n: 1 })).toEqual(new HttpReply(202, null));
  });

  it('refuses a table that serves one subject twice', () => {
    const table = [serve(OtherRpc, () => ({ execute: () => null })), serve(OtherRpc, () => ({ execute: () => null }))];
    expect(() => bindHandlers(table, { prefix: '' })).toThrow('handlertest.v1.other has two handlers');
  });

  it('does not compile a use case whose input or output differs from its contract (checked by tsc)', () => {
    const lines = [
      // @ts-expect-error: the use case wants a field the contract's request does not have
      serve(GreetRpc, () => ({ execute: (r: { body: { name: string; age: number } }) => ({ greeting: r.body.name }) })),
      // @ts-expect-error: the use case answers what the contract's response is not
      serve(GreetRpc, () => ({ execute: () => ({ greet: 'hi' }) })),
      // @ts-expect-error: an HttpReply must carry the response (or an error body)
      serve(GreetRpc, () => ({ execute: () => new HttpReply(201, { greeting: 1 }) })),
      // @ts-expect-error: the parts a line builds from are the service's
      serve(GreetRpc, (d: { other: string }) => new Greet(d.other)),
    ];
    expect(lines).toHaveLength(4);
  });
});
