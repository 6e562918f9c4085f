package tw.lotbook.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
