import { portOf, serverNameOf } from './sink-transport';

describe('sink URLs', () => {
  it.each([
    ['mqtts://broker.example.com:8883', { servername: 'broker.example.com' }],
    ['amqps://127.0.0.1', {}],
    ['mqtts://[::1]:8883', {}],
  ])('%s: TLS names the host, never an IP address (RFC 6066)', (url, expected) => {
    expect(serverNameOf(new URL(url))).toEqual(expected);
  });

  it("takes the URL's port, else the transport's plain or TLS default", () => {
    expect(portOf(new URL('mqtt://h:1999'), 1883, 8883, false)).toBe(1999);
    expect(portOf(new URL('mqtts://h'), 1883, 8883, true)).toBe(8883);
    expect(portOf(new URL('mqtt://h'), 1883, 8883, false)).toBe(1883);
  });
});
