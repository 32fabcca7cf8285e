import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/config.js';

describe('--datacenter-peers / FIELDWORK_DATACENTER_PEERS', () => {
  it('reads id=url pairs, flag over variable, without trailing slashes', () => {
    const env = { FIELDWORK_DATACENTER_PEERS: 'iad1=https://iad1.example.com/' };
    expect(readConfig({}, env).datacenterPeers).toEqual({ iad1: 'https://iad1.example.com' });
    const flagged = readConfig(
      {
        datacenter: 'fra1',
        datacenterPeers: 'iad1=http://127.0.0.1:8081, sjc1=https://proxy.example/fieldwork',
      },
      env,
    );
    expect(flagged.datacenterPeers).toEqual({
      iad1: 'http://127.0.0.1:8081',
      sjc1: 'https://proxy.example/fieldwork',
    });
  });

  it('has none unless given', () => {
    expect(readConfig({}, {}).datacenterPeers).toBeUndefined();
  });

  it.each([
    ['iad1', 'id=url pairs'],
    ['iad1=ftp://iad1.example.com', 'id=url pairs'],
    ['Iad 1=https://iad1.example.com', 'id=url pairs'],
    ['iad1=https://iad1.example.com?x=1', 'id=url pairs'],
    ['iad1=https://user:pw@iad1.example.com', 'id=url pairs'],
    ['loc1=https://elsewhere.example.com', 'as its own peer'],
    ['iad1=https://a.example.com,iad1=https://b.example.com', 'twice'],
  ])('refuses %s, naming the flag', (value, problem) => {
    const attempt = () => readConfig({ datacenterPeers: value }, {});
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/--datacenter-peers/);
    expect(attempt).toThrow(problem);
  });
});
