// VitePress's default theme with Wallery's few adjustments (custom.css).
import DefaultTheme from 'vitepress/theme';
import './custom.css';

export default DefaultTheme;
