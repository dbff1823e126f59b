import { render } from 'preact';
import { isRtl, language, loadLanguage, pickLanguage } from '../i18n';
import { App } from './App';
import { frameParams, toHost } from './host';
import './style.css';

// Say hello first: the loader then knows the frame runs and sends what it queued.
toHost({ type: 'hello' });

const lang = pickLanguage([frameParams.locale, ...navigator.languages, navigator.language]);
void loadLanguage(lang)
  .catch(() => loadLanguage('en'))
  .then(() => {
    document.documentElement.lang = language();
    document.documentElement.dir = isRtl(language()) ? 'rtl' : 'ltr';
    render(
      <App locale={frameParams.locale ?? navigator.language} />,
      document.getElementById('app')!,
    );
  });
