/** Two screens: connect (the user's mobile token from the customer's backend), then status and sync. */
import { useEffect, useState } from 'react';
import { Button, SafeAreaView, Text, TextInput } from 'react-native';
import type { SyncStatus } from '@wellstream/mobile';
import { startBackgroundSync, wellstream } from './wellstream';
import { StatusScreen } from './StatusScreen';

export function App() {
  const [status, setStatus] = useState<SyncStatus | undefined>();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    void wellstream.status().then(setStatus);
  }, []);

  useEffect(() => {
    if (!status?.connected) return;
    let stop: (() => void) | undefined;
    void startBackgroundSync().then((s) => (stop = s));
    return () => stop?.();
  }, [status?.connected]);

  if (status?.connected || status?.stopped) return <StatusScreen status={status} onChange={setStatus} />;
  return (
    <SafeAreaView>
      <Text>Link this phone: paste the mobile token your service got from GET user.</Text>
      <TextInput value={token} onChangeText={setToken} placeholder="mobile token" autoCapitalize="none" />
      <Button
        title="Connect Apple Health / Health Connect"
        onPress={async () => {
          try {
            setStatus(await wellstream.connect(token.trim()));
            await wellstream.sync();
            setStatus(await wellstream.status());
          } catch (e) {
            setError((e as Error).message);
          }
        }}
      />
      {error ? <Text>{error}</Text> : null}
    </SafeAreaView>
  );
}
